#pragma once

#include "net/nostr/Event.h"
#include "relay/ingest/ChannelAdmin.h"
#include "relay/ingest/RelayEmitter.h"
#include "relay/model/IngestResult.h"
#include "relay/model/PresenceTable.h"
#include "relay/model/RequestContext.h"
#include "relay/model/StoredEvent.h"
#include "relay/store/Store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace buzz::relay::ingest {

// The ordered checks of docs/buzz-protocol.md §Ingest order and the store step, all in one writer
// transaction: an event is answered accepted only after that transaction (event row, side-effect
// rows, relay-signed events and the commit-log record) committed; any failure rolls back
// everything.
class IngestPipeline
{
public:
    // Presence status bytes (docs/buzz-protocol.md §Presence and typing) and NIP-33 `d` tag bytes
    // (docs/buzz-protocol.md §Ingest order step 20).
    static constexpr std::size_t kMaxPresenceBytes = 128;
    static constexpr std::size_t kMaxDTagBytes = 1024;

    IngestPipeline(store::Store &database, RelayEmitter &emitter, PresenceTable &presence)
        : m_database(database)
        , m_emitter(emitter)
        , m_admin(emitter)
        , m_presence(presence)
    { }

    struct Outcome
    {
        IngestResult result;
        std::vector<StoredEvent>
            committed; // the event (if newly stored) then relay-signed side effects
    };

    Outcome ingest(const nostr::Event &event, const RequestContext &context, std::int64_t now,
                   std::int64_t nowMs);
    // The same without waiting for the writer: the prechecks (signature) run on the calling
    // thread, `done` runs after the commit on the writer's group thread (keep it short).
    using Done = std::function<void(Outcome)>;
    void ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                     std::int64_t now, std::int64_t nowMs, Done done);

    // Import (relay/README.md "Export and import"): one event of an export, already verified by
    // the caller, replayed with created_at as the rules' clock and no relay-signed side effects
    // (construct this pipeline with a muted emitter): the export's own relay-signed events follow
    // it and are stored as they are. No precheck, commit floor or cross-process announcement:
    // import runs against a stopped relay.
    void restoreAsync(std::shared_ptr<const nostr::Event> event, std::string community,
                      std::int64_t nowMs, Done done);
    // The kinds only the relay signs (discovery, system messages, membership notices).
    static bool isRelayWritten(int kind);

private:
    // An export's relay-signed event stored as it is, replacing an older addressable version.
    Outcome restoreRelayWritten(store::WriteTransaction &tx, const nostr::Event &event,
                                const std::string &json, const std::string &community);
    // Presence never reaches the writer: it is kept in the presence table and fanned out.
    std::optional<Outcome> presence(const nostr::Event &event, const RequestContext &context,
                                    std::int64_t now);
    // The work one event does inside its savepoint of a group transaction.
    // `json` is the event's canonical JSON, serialised before the event reaches the writer.
    void writeEvent(store::WriteTransaction &tx, const nostr::Event &event, const std::string &json,
                    const RequestContext &context, std::int64_t now, std::int64_t nowMs,
                    Outcome &outcome);
    Outcome ingestLocked(store::WriteTransaction &tx, const nostr::Event &event,
                         const std::string &json, const RequestContext &context, std::int64_t now);

    store::Store &m_database;
    RelayEmitter &m_emitter;
    ChannelAdmin m_admin;
    PresenceTable &m_presence;
};

} // namespace buzz::relay::ingest
