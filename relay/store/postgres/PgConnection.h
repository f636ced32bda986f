#pragma once

// The relay's only libpq user: one PostgreSQL connection, its prepared statements, and the typed
// parameters and results every PostgreSQL statement of the relay goes through. Parameters and
// results travel in binary format (ids, pubkeys and signatures are bytea bytes, timestamps are
// timestamptz), so nothing is formatted or parsed as text on the way.

#include "relay/store/postgres/PgResult.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct pg_conn;
struct pg_result;

namespace buzz::relay::store {

// SQLSTATEs the relay tells apart (PostgreSQL appendix A).
namespace pgstate {
inline constexpr std::string_view kQueryCanceled = "57014"; // statement_timeout or a cancel
inline constexpr std::string_view kSerializationFailure = "40001"; // incl. recovery conflicts
inline constexpr std::string_view kDeadlockDetected = "40P01";
inline constexpr std::string_view kUniqueViolation = "23505";
} // namespace pgstate

// Typed statement parameters ($1, $2, … in the order added).
class PgParams
{
public:
    PgParams &int64(std::int64_t value);
    PgParams &int32(int value);
    PgParams &boolean(bool value);
    PgParams &text(std::string_view value);
    PgParams &optionalText(const std::optional<std::string> &value);
    PgParams &optionalInt64(const std::optional<std::int64_t> &value);
    PgParams &bytes(std::string_view value);
    PgParams &bytes(const std::uint8_t *data, std::size_t size);
    // Unix seconds as timestamptz.
    PgParams &timestamp(std::int64_t unixSeconds);
    PgParams &optionalTimestamp(const std::optional<std::int64_t> &unixSeconds);
    PgParams &jsonb(std::string_view json);
    PgParams &textArray(std::span<const std::string> values);
    PgParams &optionalTextArray(std::span<const std::optional<std::string>> values); // NULLs kept
    PgParams &int32Array(std::span<const int> values);
    PgParams &bytesArray(std::span<const std::string> values); // each element: raw bytes
    PgParams &timestampArray(std::span<const std::int64_t> unixSeconds);
    PgParams &null(unsigned type);

    int size() const { return static_cast<int>(m_types.size()); }
    const unsigned *types() const { return m_types.data(); }
    // Values point into this object: valid until it is changed or destroyed.
    std::vector<const char *> values() const;
    const int *lengths() const { return m_lengths.data(); }
    const int *formats() const { return m_formats.data(); }

private:
    void add(unsigned type, std::string value, int format);

    std::vector<unsigned> m_types;
    std::vector<std::string> m_values;
    std::vector<bool> m_null;
    std::vector<int> m_lengths;
    std::vector<int> m_formats;
};

class PgConnection
{
public:
    ~PgConnection();
    PgConnection(const PgConnection &) = delete;
    PgConnection &operator=(const PgConnection &) = delete;

    // `url`: a libpq URI (postgresql://…) or key=value string. Every connection of the relay
    // carries application_name=buzz-mock-relay (pg_stat_activity tells its writes apart).
    // `targetSessionAttrs`, when given, overrides the URL's (a multi-host URL's "read-write").
    static std::unique_ptr<PgConnection> open(const std::string &url, std::string &error,
                                              const char *targetSessionAttrs = nullptr);
    static constexpr const char *kApplicationName = "buzz-mock-relay";

    // One or more statements without parameters (simple query protocol); the last one's result.
    PgResult exec(const std::string &sql);
    // One statement, prepared on this connection the first time its text is seen.
    PgResult run(const std::string &sql, const PgParams &params = {});
    // Several statements in one round trip, every statement's result in order (the first failing
    // one is the last: the server skips the rest).
    std::vector<PgResult> execAll(const std::string &sql);
    // exec() reduced to success (errors are logged with the statement).
    bool execOk(const std::string &sql);

    // Deferred statements (no parameters, no rows wanted) go ahead of the next statement, in its
    // round trip (libpq pipeline mode): the writer's BEGIN, SAVEPOINT and RELEASE of a grouped
    // event cost no round trip of their own (docs/benchmarks.md "PostgreSQL"). A deferred
    // statement that fails makes the statements after it in that round trip fail too, and is
    // remembered until clearDeferredFailure().
    void defer(std::string sql);
    // A statement with parameters, deferred the same way (prepared now, on its first use).
    void defer(const std::string &sql, PgParams params);
    // Called with each statement's text before exec(), execAll(), run(), runThen() and pipeline()
    // send anything (not from inside itself): the group commit defers its held-back rows there
    // (store/PgEventBatch).
    void setBeforeSend(std::function<void(std::string_view sql)> hook)
    {
        m_beforeSend = std::move(hook);
    }
    // Takes back the last deferred statement when it is `sql` (not sent yet): true if it was.
    bool withdraw(std::string_view sql);
    bool hasDeferred() const { return !m_deferred.empty(); }
    void discardDeferred() { m_deferred.clear(); }
    // Sends the deferred statements now, in one round trip; false when one of them failed.
    bool sendDeferred();
    bool deferredFailed() const { return !m_deferredError.empty(); }
    const std::string &deferredError() const { return m_deferredError; }
    void clearDeferredFailure() { m_deferredError.clear(); }
    // `sql` (prepared like run()) then `then` (statements without parameters) in one round trip,
    // after the deferred ones: each one's result, in order. After a failed statement the rest
    // are not run (their results are not ok).
    std::vector<PgResult> runThen(const std::string &sql, const PgParams &params,
                                  std::span<const std::string> then);
    // `statements` (no parameters) in one round trip after the deferred ones.
    std::vector<PgResult> pipeline(std::span<const std::string> statements);

    // Round trips to the server so far (each statement, prepare, or pipeline of them).
    std::uint64_t roundTrips() const { return m_roundTrips.load(std::memory_order_relaxed); }

    // The connection is usable (a server restart or a recovery conflict may have closed it).
    bool healthy() const;
    // Reconnects a broken connection (prepared statements are prepared again on first use).
    bool reconnect();
    std::string lastError() const;
    int backendPid() const;
    // Whether the connection is inside a transaction block (open, or aborted by an error).
    bool inTransaction() const;
    pg_conn *handle() const { return m_connection; }

    // LISTEN support (store/postgres/PgFanoutListener): the socket to wait on (-1 when not
    // connected), reading what arrived without blocking (false: the connection broke), and the
    // payloads of the notifications read so far, in the order they arrived.
    int socket() const;
    bool consumeInput();
    std::vector<std::string> takeNotifications();
    // A connection whose server went away still looks healthy until it is used: reads what is
    // pending without blocking (a crashing server's last message, then the end of the stream),
    // so a broken connection says so before a statement is sent on it.
    bool stillConnected();
    const std::string &url() const { return m_url; }
    // host:port/dbname of the server this connection reached (for start lines).
    std::string describe() const;

private:
    PgConnection() = default;
    // The statement name of `sql`, prepared on first use (nullptr: preparing it failed, `failed`
    // holds why).
    const char *preparedName(const std::string &sql, const PgParams &params, PgResult &failed);
    // The deferred statements, then `prepared` with `params` (when given), then `then`, as one
    // pipeline; the results after the deferred ones'.
    std::vector<PgResult> roundTrip(const char *prepared, const PgParams *params,
                                    std::span<const std::string> then);

    void beforeSend(std::string_view sql);

    struct Deferred
    {
        std::string sql;
        const char *prepared = nullptr; // set: run it prepared, with `params`
        PgParams params;
    };
    pg_conn *m_connection = nullptr;
    std::vector<Deferred> m_deferred;
    std::function<void(std::string_view)> m_beforeSend;
    bool m_inBeforeSend = false;
    std::string m_deferredError; // the first deferred statement that failed
    std::atomic<std::uint64_t> m_roundTrips {0};
    bool m_lastDeferredOk = true; // every deferred statement of the last round trip succeeded
    std::string m_url;
    std::unordered_map<std::string, std::string> m_prepared; // SQL text → statement name
};

} // namespace buzz::relay::store
