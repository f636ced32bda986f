#pragma once

#include "net/nostr/Event.h"
#include "relay/ingest/RelayEmitter.h"
#include "relay/model/Channel.h"
#include "relay/model/IngestResult.h"
#include "relay/model/StoredEvent.h"
#include "relay/store/WriteTransaction.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::ingest {

// NIP-29 channel administration: create (9007), add/remove member (9000/9001), edit metadata
// (9002), delete (9008, owner only), join/leave (9021/9022). Validation (docs/buzz-protocol.md
// §Ingest order steps 9, 16, 17) runs before the event row is written; apply() runs after, in the
// same transaction, and emits the relay-signed events.
class ChannelAdmin
{
public:
    explicit ChannelAdmin(RelayEmitter &emitter)
        : m_emitter(emitter)
    { }

    // `channel` is the existing channel (nullptr for a new 9007). For 9007, `newChannelId` is the
    // UUID the channel will get. A replay of the exact creation event yields Duplicate.
    std::optional<IngestResult> validate(store::WriteTransaction &tx, const nostr::Event &event,
                                         const std::string &community,
                                         const model::Channel *channel,
                                         const std::string &newChannelId);

    bool apply(store::WriteTransaction &tx, const nostr::Event &event, const std::string &community,
               const model::Channel *channel, const std::string &newChannelId, std::int64_t now,
               std::vector<StoredEvent> &emitted);

private:
    bool applyCreate(store::WriteTransaction &tx, const nostr::Event &event,
                     const std::string &community, const std::string &uuid, std::int64_t now,
                     std::vector<StoredEvent> &emitted);
    bool applyMembership(store::WriteTransaction &tx, const nostr::Event &event,
                         const model::Channel &channel, std::int64_t now,
                         std::vector<StoredEvent> &emitted);
    bool applyDelete(store::WriteTransaction &tx, const nostr::Event &event,
                     const model::Channel &channel, std::int64_t now,
                     std::vector<StoredEvent> &emitted);
    bool applyMetadata(store::WriteTransaction &tx, const nostr::Event &event,
                       const model::Channel &channel, std::int64_t now,
                       std::vector<StoredEvent> &emitted);

    RelayEmitter &m_emitter;
};

} // namespace buzz::relay::ingest
