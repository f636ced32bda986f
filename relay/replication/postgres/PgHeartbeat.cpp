#include "relay/replication/postgres/PgHeartbeat.h"

#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgStore.h"

#include <QLoggingCategory>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

PgHeartbeat::PgHeartbeat(store::PgStore &writer, FenceRing &ring, std::shared_ptr<RelayClock> clock)
    : m_writer(writer)
    , m_ring(ring)
    , m_clock(std::move(clock))
{ }

PgHeartbeat::~PgHeartbeat() = default;

bool PgHeartbeat::connect(std::string &error)
{
    std::lock_guard lock(m_mutex);
    m_connection = m_writer.connect(error);
    return m_connection && m_connection->execOk("SET synchronous_commit = on");
}

std::optional<std::int64_t> PgHeartbeat::lastOldestWriteAgeMs() const
{
    std::lock_guard lock(m_mutex);
    return m_oldestWriteAgeMs;
}

bool PgHeartbeat::beat()
{
    std::lock_guard lock(m_mutex);
    if (!m_connection || (!m_connection->healthy() && !m_connection->reconnect()))
        return false;
    store::PgConnection &connection = *m_connection;
    const auto fail = [&](const char *what, const store::PgResult &result) {
        qCWarning(lcReplica) << "heartbeat" << what << "failed:" << result.message().c_str();
        if (connection.inTransaction())
            connection.exec("ROLLBACK");
        return false;
    };
    if (!connection.execOk("BEGIN"))
        return false;
    store::PgResult current =
        connection.run("SELECT token FROM replica_heartbeat WHERE id = 1 FOR UPDATE");
    if (!current.ok() || current.rows() == 0)
        return fail("read", current);
    const std::int64_t sampleMs = m_clock->nowMs();
    // How long ago the oldest transaction that has written (holds an xid) in this database began,
    // by the server's clock; the relay's own clock may be offset (POST /admin/clock) or manual,
    // so the age, not the timestamp, moves into it.
    store::PgResult oldest = connection.run(
        "SELECT (extract(epoch FROM clock_timestamp() - min(xact_start)) * 1000)::int8 FROM "
        "pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid "
        "<> pg_backend_pid()");
    if (!oldest.ok())
        return fail("pg_stat_activity", oldest);
    std::optional<std::int64_t> oldestStartMs = m_writer.openWriteStartedAtMs();
    m_oldestWriteAgeMs.reset();
    if (oldest.rows() > 0 && !oldest.isNull(0, 0)) {
        m_oldestWriteAgeMs = std::max<std::int64_t>(0, oldest.int64(0, 0));
        const std::int64_t startedMs = sampleMs - *m_oldestWriteAgeMs;
        oldestStartMs = oldestStartMs ? std::min(*oldestStartMs, startedMs) : startedMs;
    }
    const std::int64_t wall = FenceRing::fenceWallSec(oldestStartMs, sampleMs);
    const std::int64_t token = current.int64(0, 0) + 1;
    const std::uint64_t epoch = m_ring.epochForNext(token, sampleMs);
    const std::int64_t committedAtMs = std::max(sampleMs, m_clock->nowMs());
    store::PgResult update = connection.run(
        "UPDATE replica_heartbeat SET token = $1, epoch = $2, fence_wall = $3, committed_at_ms = "
        "$4 WHERE id = 1",
        store::PgParams()
            .int64(token)
            .int64(static_cast<std::int64_t>(epoch))
            .int64(wall)
            .int64(committedAtMs));
    if (!update.ok())
        return fail("update", update);
    store::PgResult commit = connection.exec("COMMIT");
    if (!commit.ok())
        return fail("commit", commit);
    m_ring.record(epoch, HeartbeatEntry {token, committedAtMs, wall});
    m_lastToken = token;
    return true;
}

} // namespace buzz::relay::replication
