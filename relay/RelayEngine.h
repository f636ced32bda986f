#pragma once

// The seam between the relay's network side (server/: HTTP bridge, WebSocket sessions, auth) and
// its data side (store/, ingest/, query/, later routing/ and replication/). Every method is
// blocking and thread-safe: the server calls them from worker threads, never the network thread.

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"

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
} // namespace replication

enum class Transport { WebSocket, Http };

// Who is asking, after auth and Host → community resolution.
struct RequestContext
{
    std::string community; // resolved from the normalised Host header
    std::string pubkey; // authenticated pubkey, 64 lower-case hex
    Transport transport = Transport::Http;
};

// A stored event as served: the parsed event plus its exact wire JSON (serialised once at ingest,
// so reads never re-serialise) and its resolved scope.
struct StoredEvent
{
    nostr::Event event;
    std::string json;
    std::string community;
    std::optional<std::string> channel; // resolved channel (may differ from the literal h tag)
};

struct IngestResult
{
    enum class Status {
        Stored, // accepted=true, message ""
        Duplicate, // accepted=true, message "duplicate:" (or another accepted message)
        RejectedDuplicate, // accepted=false, HTTP 200, e.g. "duplicate: channel already exists"
        Rejected, // accepted=false, HTTP 400 {"error":message}
        Conflict, // accepted=false, HTTP 409 {"error":message} — canvas CAS "conflict: …"
        Forbidden, // accepted=false, HTTP 403 {"error":message}
        Internal, // accepted=false, HTTP 500 {"error":"internal server error"}; WS "error: internal
                  // server error"
    };
    Status status = Status::Internal;
    std::string message;
    bool accepted() const { return status == Status::Stored || status == Status::Duplicate; }
    int httpStatus() const;
};

// Which caller is reading: the routing layer (issue: replicas and routing) classifies by this.
enum class ReadPath {
    BridgeQuery, // POST /query
    BridgeCount, // POST /count
    BridgeCountFallback, // POST /count that materialises rows
    ReqHistorical, // WS REQ backfill
    CountReq, // WS COUNT
    CountReqFallback, // WS COUNT that materialises rows
    BridgeThreadAux, // depth_limit thread pages
    BridgeSearchHydrate, // NIP-50 hydration of POST /query search hits (exact pairs)
    ReqSearchHydrate, // NIP-50 hydration of WS REQ search hits (exact pairs)
    ProfileSearchHydrate, // NIP-50 hydration of profile-name (kinds:[0]) search hits
};

struct QueryResult
{
    enum class Status {
        Ok,
        BadRequest, // 400 {"error":message}
        Forbidden, // 403 {"error":message}; WS CLOSED with message
        TimedOut, // 503 {"error":"query timed out"}; WS CLOSED "error: query timed out"
        Retryable, // 503 + Retry-After; WS CLOSED "error: retryable: …"
        Internal, // 500 {"error":"internal server error"}
    };
    Status status = Status::Ok;
    std::string message;
    std::vector<StoredEvent>
        events; // filters' results concatenated in filter order (HTTP) or de-duplicated (WS)
    std::int64_t count = 0; // for count()
    std::string route = "writer"; // "writer" | "replica"
    std::string routeReason = "disabled";
};

// Subscription admission for WS REQ: empty when allowed, else the CLOSED reason
// ("restricted: not a channel member", "restricted: p-gated events require #p matching your
// pubkey", …).
using AdmissionResult = std::optional<std::string>;

class RelayEngine
{
public:
    struct Options
    {
        std::optional<std::string> dataDir; // SQLite files there; nullopt = in memory
        std::string relaySecretKeyHex; // relay-signed kinds (39000-39002, 40099, 44100/44101)
        std::function<std::int64_t()> clock; // unix seconds; default: relayClock below

        // Read replicas and routing (relay/replication, relay/routing).
        int replicas = 0; // --replicas N
        std::int64_t replicaLagMs = 0; // --replica-lag-ms MS
        std::optional<std::int64_t> readBudgetMs; // nullopt: BUZZ_REPLICA_READ_MAX_AGE_MS (0 = off)
        std::optional<int> readPoolSize; // nullopt: BUZZ_DB_READ_POOL_SIZE (default 4)
        std::shared_ptr<replication::RelayClock> relayClock; // ms + admin offset; default system
        bool replicationDriver = true; // false: a test beats and replays by hand (manual clock)
    };

    explicit RelayEngine(Options options);
    ~RelayEngine();
    RelayEngine(const RelayEngine &) = delete;
    RelayEngine &operator=(const RelayEngine &) = delete;

    // Full ingest pipeline (reference §6 order and messages, canvas CAS). Returns only after the
    // transaction committed (or failed). Relay-emitted side-effect events are committed too and
    // reported to the commit listener.
    IngestResult ingest(const nostr::Event &event, const RequestContext &context);
    // The same for callers that need not wait: the signature is checked on the calling thread,
    // `done` is called once the writer transaction committed (or failed), on the writer's group
    // thread, so it must only hand the answer on (e.g. post it to the connection's thread).
    void ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                     std::function<void(IngestResult)> done);

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
