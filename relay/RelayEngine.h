#pragma once

// The seam between the relay's network side (server/: HTTP bridge, WebSocket sessions, auth) and
// its data side (store/, replication/, routing/, query/, search/, ingest/). Every method is
// thread-safe and, except ingestAsync, blocking: the server calls them from worker threads, never
// the network thread. Only server/, app/ and tests include this facade; the layers below it use
// the value types of relay/model directly.

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"
#include "relay/model/IngestResult.h"
#include "relay/model/PresenceTable.h"
#include "relay/model/QueryResult.h"
#include "relay/model/ReadPath.h"
#include "relay/model/RequestContext.h"
#include "relay/model/SharedReplayCache.h"
#include "relay/model/StoredEvent.h"
#include "relay/store/CommitLogRetention.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay {

namespace replication {
class RelayClock;
class ReplicaSet;
class ReplicaTier;
} // namespace replication

class RelayEngine
{
public:
    struct Options
    {
        std::optional<std::string> dataDir; // SQLite files there; nullopt = in memory
        // PostgreSQL instead of SQLite (--database-url / DATABASE_URL): the writer, and the
        // streaming hot standby that serves routed reads (--read-database-url /
        // READ_DATABASE_URL). dataDir then holds no database.
        std::string databaseUrl;
        std::string readDatabaseUrl;
        std::string relaySecretKeyHex; // relay-signed kinds (39000-39002, 40099, 44100/44101)
        std::function<std::int64_t()> clock; // unix seconds; default: relayClock below

        // Read replicas and routing (relay/replication, relay/routing). With replicas > 0 reads
        // are routed; with 0 every read is served by the writer.
        int replicas = 0; // --replicas N
        std::int64_t replicaLagMs = 0; // --replica-lag-ms MS
        std::int64_t readBudgetMs = 0; // replica read budget: 0 = off, clamped to 30 000
        int readPoolSize = 4; // reader connections per replica
        // A replica statement running longer is cancelled and surfaced as "query timed out".
        std::chrono::milliseconds readerStatementTimeout {2000};
        std::shared_ptr<replication::RelayClock> relayClock; // ms + admin offset; default system
        bool replicationDriver = true; // false: a test beats and replays by hand (manual clock)
        store::CommitLogRetention commitLogRetention; // how much commit log the writer keeps
        // Each author's latest kind 20001 status (docs/buzz-protocol.md §Presence and typing);
        // null: one in this process's memory.
        std::shared_ptr<PresenceTable> presence;
    };

    explicit RelayEngine(Options options);
    ~RelayEngine();
    RelayEngine(const RelayEngine &) = delete;
    RelayEngine &operator=(const RelayEngine &) = delete;

    // Full ingest pipeline (docs/buzz-protocol.md §Ingest order, canvas CAS). Returns only after
    // the transaction committed (or failed). Relay-emitted side-effect events are committed too and
    // reported to the commit listener.
    IngestResult ingest(const nostr::Event &event, const RequestContext &context);
    // The same for callers that need not wait: the signature is checked on the calling thread,
    // `done` is called once the writer transaction committed (or failed), on the writer's group
    // thread, so it must only hand the answer on (e.g. post it to the connection's thread).
    void ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                     std::function<void(IngestResult)> done);

    // Import (buzz-mock-relay import; relay/README.md "Export and import"): one event of an export
    // of `community`, its id and signature already verified by the caller, replayed through the
    // ingest rules on its own created_at, without relay-signed side effects (the export carries
    // them). Queued on the group commit like ingestAsync; `done` runs on the writer's thread.
    // Nothing is announced to subscribers: import runs against a stopped relay.
    void restoreAsync(std::shared_ptr<const nostr::Event> event, std::string community,
                      std::function<void(IngestResult)> done);
    // Export: every stored event of `community` in (created_at, id) order, as its wire JSON.
    // False with `error` when reading failed part way.
    bool exportEvents(const std::string &community,
                      const std::function<void(const std::string &json)> &line, std::string &error);

    // NIP-98 ids shared by every relay process on the same PostgreSQL database; null on SQLite.
    std::shared_ptr<SharedReplayCache> sharedReplayCache() const;

    // Answers of query() are charged to `budget` while they are assembled (relay/README.md
    // "Limits"); set by the server before it serves, null for none.
    void setOutboundBudget(std::shared_ptr<OutboundBudget> budget);

    QueryResult query(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);
    QueryResult count(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);

    // WS REQ admission (before history is read) and live fan-out authorisation per recipient.
    AdmissionResult admitSubscription(const std::vector<nostr::Filter> &filters,
                                      const RequestContext &context);
    bool canRead(const std::string &community, const std::string &channel,
                 const std::string &pubkey);

    // Called (from the committing thread) after every committed event, including relay-signed ones.
    // The event is handed over, not copied: a listener may keep it.
    using CommitListener = std::function<void(std::shared_ptr<const StoredEvent>)>;
    void setCommitListener(CommitListener listener);

    // Demo data for --seed demo: a few channels whose canvases have several revisions.
    void seedDemo(const std::string &community);

    std::string relayPublicKeyHex() const;

    // The replica tier (null only when the database failed to open; with 0 replicas every read
    // stays on the writer) and the relay's clock, for the admin API and tests.
    replication::ReplicaSet *replicaSet() const;
    // The replica side whatever the store: the SQLite replicas, or the PostgreSQL standby.
    replication::ReplicaTier *replicaTier() const;
    replication::RelayClock &relayClock() const;

    // Empty when the store opened; otherwise why not (every call then answers Internal).
    std::string startupError() const;

    // Counters for /metrics (Prometheus text lines, already formatted).
    std::string metricsText() const;

private:
    class Impl;
    std::unique_ptr<Impl> d;
};

} // namespace buzz::relay
