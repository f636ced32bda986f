#include "relay/replication/sqlite/HeartbeatWriter.h"

#include "relay/store/sqlite/SqliteStore.h"

#include <QLoggingCategory>

#include <nlohmann/json.hpp>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

HeartbeatWriter::HeartbeatWriter(store::SqliteStore &database, FenceRing &ring,
                                 std::shared_ptr<RelayClock> clock)
    : m_database(database)
    , m_ring(ring)
    , m_clock(std::move(clock))
{ }

bool HeartbeatWriter::initialize()
{
    auto transaction = m_database.beginWrite("", m_clock->nowMs());
    if (!transaction)
        return false;
    auto &connection = transaction->connection();
    if (!connection.exec("CREATE TABLE IF NOT EXISTS replica_heartbeat ("
                         "id INTEGER PRIMARY KEY CHECK (id = 1), token INTEGER NOT NULL);"
                         "INSERT OR IGNORE INTO replica_heartbeat (id, token) VALUES (1, 0);"))
        return false;
    return transaction->commit(m_clock->nowMs());
}

bool HeartbeatWriter::beat()
{
    auto transaction = m_database.beginWrite("", m_clock->nowMs());
    if (!transaction)
        return false;
    auto &connection = transaction->connection();
    // Inside the write transaction no channel write is open (the writer is exclusive), so the
    // oldest open write is this one; sampling it keeps the formula honest if that ever changes.
    const std::int64_t sampleMs = m_clock->nowMs();
    const std::int64_t wall = FenceRing::fenceWallSec(m_database.openWriteStartedAtMs(), sampleMs);

    auto select = connection.prepare("SELECT token FROM replica_heartbeat WHERE id = 1");
    if (!select.valid() || !select.step())
        return false;
    const std::int64_t token = select.int64(0) + 1;
    const std::uint64_t epoch = m_ring.epochForNext(token, sampleMs);

    auto update = connection.prepare("UPDATE replica_heartbeat SET token = ?1 WHERE id = 1");
    update.bind(1, token);
    if (!update.run())
        return false;
    const std::int64_t committedAtMs = std::max(sampleMs, m_clock->nowMs());
    const nlohmann::json change = {
        {"heartbeat", {{"token", token}, {"epoch", epoch}, {"fence_wall", wall}}},
        {"ops", nlohmann::json::array()},
        {"committed_at_ms", committedAtMs}};
    if (!transaction->appendRecord(committedAtMs, change.dump())) {
        qCWarning(lcReplica) << "heartbeat append failed:" << connection.lastError().c_str();
        return false;
    }
    if (!transaction->commit(committedAtMs))
        return false;
    m_ring.record(epoch, HeartbeatEntry {token, committedAtMs, wall});
    m_lastToken = token;
    return true;
}

} // namespace buzz::relay::replication
