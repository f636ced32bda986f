#include "relay/replication/postgres/PgStandby.h"

#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgReadConnection.h"
#include "relay/store/postgres/PgStore.h"

#include <QLoggingCategory>

#include <thread>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

namespace {
// After a failed connection attempt the standby is not tried again for this long: a stopped
// standby costs each read one refused connect at most this often, never a wait.
constexpr auto kUnreachableBackoff = std::chrono::milliseconds(250);
constexpr auto kPauseWait = std::chrono::seconds(5);
} // namespace

class PgStandby::Reader final : public ReplicaReader
{
public:
    Reader(PgStandby &standby, store::PgConnection &connection,
           std::optional<ObservedHeartbeat> heartbeat, std::int64_t position)
        : m_standby(standby)
        , m_connection(connection)
        , m_read(connection)
        , m_heartbeat(std::move(heartbeat))
        , m_position(position)
    { }
    ~Reader() override
    {
        // Read only: ending the transaction either way releases its snapshot.
        if (m_connection.healthy() && m_connection.inTransaction())
            m_connection.exec("ROLLBACK");
        m_standby.release(&m_connection);
    }

    store::ReadConnection &connection() override { return m_read; }
    const std::optional<ObservedHeartbeat> &heartbeat() const override { return m_heartbeat; }
    std::int64_t position() const override { return m_position; }
    bool deadlineExceeded() const override { return false; } // the server says 57014 itself

private:
    PgStandby &m_standby;
    store::PgConnection &m_connection;
    store::PgReadConnection m_read;
    std::optional<ObservedHeartbeat> m_heartbeat;
    std::int64_t m_position;
};

PgStandby::PgStandby(Config config)
    : m_config(std::move(config))
{ }

std::unique_ptr<PgStandby> PgStandby::open(const Config &config, std::string &error)
{
    std::unique_ptr<PgStandby> standby(new PgStandby(config));
    standby->m_config.poolSize = std::max(1, config.poolSize);
    standby->m_control = store::PgConnection::open(config.url, error);
    if (!standby->m_control) {
        error = "cannot connect to the PostgreSQL read replica: " + error;
        return nullptr;
    }
    store::PgResult recovery = standby->m_control->exec("SELECT pg_is_in_recovery()");
    if (!recovery.ok()) {
        error = "PostgreSQL read replica: " + recovery.message();
        return nullptr;
    }
    if (!recovery.int64(0, 0)) {
        error = "--read-database-url names a server that is not in recovery: the read replica "
                "must be a streaming hot standby of the writer";
        return nullptr;
    }
    standby->m_location = standby->m_control->describe();
    standby->refresh();
    return standby;
}

PgStandby::~PgStandby()
{
    std::lock_guard control(m_controlMutex);
    m_idle.clear();
    m_connections.clear();
}

void PgStandby::observe(const std::optional<ObservedHeartbeat> &heartbeat)
{
    if (!heartbeat)
        return;
    std::lock_guard lock(m_statusMutex);
    // Tokens only grow within an epoch: never replace what is known with something older.
    if (!m_status.heartbeat || m_status.heartbeat->epoch != heartbeat->epoch
        || m_status.heartbeat->token < heartbeat->token)
        m_status.heartbeat = heartbeat;
    m_status.reachable = true;
}

bool PgStandby::refresh()
{
    Status next;
    {
        std::lock_guard control(m_controlMutex);
        if (!m_control->healthy() && !m_control->reconnect()) {
            next.error = m_control->lastError();
        } else {
            store::PgResult row = m_control->run(
                "SELECT h.token, h.epoch, pg_last_wal_replay_lsn(), pg_last_wal_receive_lsn(), "
                "pg_last_xact_replay_timestamp(), (extract(epoch FROM clock_timestamp() - "
                "pg_last_xact_replay_timestamp()) * 1000)::int8, "
                "pg_get_wal_replay_pause_state(), (SELECT setting::int8 FROM pg_settings WHERE "
                "name = 'recovery_min_apply_delay') FROM replica_heartbeat h WHERE h.id = 1");
            if (!row.ok() || row.rows() == 0) {
                next.error = row.ok() ? "no heartbeat row" : row.message();
                next.reachable = m_control->healthy();
            } else {
                next.reachable = true;
                if (row.int64(0, 0) > 0)
                    next.heartbeat = ObservedHeartbeat {
                        row.int64(0, 0), static_cast<std::uint64_t>(row.int64(0, 1))};
                next.replayLsn = row.int64(0, 2);
                next.receiveLsn = row.int64(0, 3);
                if (!row.isNull(0, 4))
                    next.replayTimestampMs = row.timestampMs(0, 4);
                next.replayAgeMs = row.isNull(0, 5) ? -1 : row.int64(0, 5);
                next.pauseState = std::string(row.text(0, 6));
                next.applyDelayMs = row.int64(0, 7);
            }
        }
    }
    std::lock_guard lock(m_statusMutex);
    if (next.heartbeat && m_status.heartbeat && m_status.heartbeat->epoch == next.heartbeat->epoch
        && m_status.heartbeat->token > next.heartbeat->token)
        next.heartbeat = m_status.heartbeat; // a read saw a newer one meanwhile
    m_status = std::move(next);
    return m_status.reachable;
}

PgStandby::Status PgStandby::status() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status;
}

bool PgStandby::replayedThrough(std::int64_t lsn)
{
    refresh();
    const Status now = status();
    return now.reachable && now.replayLsn >= lsn;
}

std::optional<ObservedHeartbeat> PgStandby::heartbeat() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status.reachable ? m_status.heartbeat : std::nullopt;
}

std::int64_t PgStandby::appliedPosition() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status.reachable ? m_status.replayLsn : 0;
}

bool PgStandby::paused() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status.pauseState != "not paused";
}

bool PgStandby::setPaused(bool paused)
{
    {
        std::lock_guard control(m_controlMutex);
        if (!m_control->healthy() && !m_control->reconnect())
            return false;
        if (!m_control->execOk(paused ? "SELECT pg_wal_replay_pause()"
                                      : "SELECT pg_wal_replay_resume()"))
            return false;
        // "pause requested" still replays the record in hand: a paused standby is one whose
        // startup process has stopped, so later writes on the primary surely stay unreplayed.
        const auto deadline = std::chrono::steady_clock::now() + kPauseWait;
        while (paused) {
            store::PgResult state = m_control->exec("SELECT pg_get_wal_replay_pause_state()");
            if (!state.ok())
                return false;
            if (state.text(0, 0) == "paused")
                break;
            if (std::chrono::steady_clock::now() > deadline)
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(1)); // the server has no wait
        }
    }
    refresh();
    return true;
}

std::int64_t PgStandby::lagMs() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status.applyDelayMs;
}

bool PgStandby::setLagMs(std::int64_t lagMs)
{
    {
        std::lock_guard control(m_controlMutex);
        if (!m_control->healthy() && !m_control->reconnect())
            return false;
        // recovery_min_apply_delay: the standby applies each commit only once it is that old.
        const std::int64_t delayMs = std::max<std::int64_t>(0, lagMs);
        if (!m_control->execOk("ALTER SYSTEM SET recovery_min_apply_delay = '"
                               + std::to_string(delayMs) + "ms'")
            || !m_control->execOk("SELECT pg_reload_conf()"))
            return false;
        // pg_reload_conf() only signals the postmaster, which signals every server process: the
        // lag is in force once this backend reads the new value too (the startup process was
        // signalled with it). Until then /admin/state would still show the old lag.
        const auto deadline = std::chrono::steady_clock::now() + kPauseWait;
        for (;;) {
            store::PgResult setting = m_control->exec(
                "SELECT setting::int8 FROM pg_settings WHERE name = 'recovery_min_apply_delay'");
            if (!setting.ok() || setting.rows() == 0)
                return false;
            if (setting.int64(0, 0) == delayMs)
                break;
            if (std::chrono::steady_clock::now() > deadline)
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(1)); // the server has no wait
        }
    }
    refresh();
    return true;
}

std::unique_ptr<ReplicaReader> PgStandby::acquireReader(std::chrono::milliseconds wait,
                                                        AcquireFailure &failure)
{
    failure = AcquireFailure::None;
    store::PgConnection *connection = nullptr;
    {
        std::unique_lock lock(m_poolMutex);
        if (m_faults.take(FaultKind::Busy)) {
            // Every reader connection is held elsewhere: the bounded wait runs out.
            m_poolAvailable.wait_for(lock, wait, [] { return false; });
            failure = AcquireFailure::Busy;
            return nullptr;
        }
        if (std::chrono::steady_clock::now() < m_unreachableUntil) {
            failure = AcquireFailure::Unavailable;
            return nullptr;
        }
        if (m_idle.empty()
            && static_cast<int>(m_connections.size()) + m_opening < m_config.poolSize) {
            ++m_opening;
            lock.unlock();
            std::string error;
            auto opened = store::PgConnection::open(m_config.url, error);
            lock.lock();
            --m_opening;
            if (!opened) {
                qCWarning(lcReplica) << name().c_str() << "unreachable:" << error.c_str();
                m_unreachableUntil = std::chrono::steady_clock::now() + kUnreachableBackoff;
                failure = AcquireFailure::Unavailable;
                return nullptr;
            }
            m_idle.push_back(opened.get());
            m_connections.push_back(std::move(opened));
        }
        if (!m_poolAvailable.wait_for(lock, wait, [this] { return !m_idle.empty(); })) {
            failure = AcquireFailure::Busy;
            return nullptr;
        }
        connection = m_idle.back();
        m_idle.pop_back();
    }
    const auto unavailable = [&]() -> std::unique_ptr<ReplicaReader> {
        {
            std::lock_guard lock(m_poolMutex);
            m_unreachableUntil = std::chrono::steady_clock::now() + kUnreachableBackoff;
        }
        {
            std::lock_guard lock(m_statusMutex);
            m_status.reachable = false;
        }
        release(connection);
        failure = AcquireFailure::Unavailable;
        return nullptr;
    };
    if (!connection->healthy() && !connection->reconnect())
        return unavailable();
    // The replay position last asked for (refresh(), every 100 ms) was read before the snapshot
    // below is taken, so the snapshot holds at least every commit replayed up to it. Reading it
    // inside the transaction would overstate: the snapshot is taken as its first statement starts.
    const std::int64_t position = appliedPosition();
    // The snapshot and the heartbeat it proves, in one round trip. REPEATABLE READ: every later
    // statement of this read sees exactly this snapshot.
    std::vector<store::PgResult> opened = connection->execAll(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = "
        + std::to_string(m_config.statementTimeout.count())
        + "; SELECT token, epoch FROM replica_heartbeat WHERE id = 1");
    if (!connection->healthy())
        return unavailable(); // terminated (a restart, a recovery conflict): the next read
                              // reconnects
    std::optional<ObservedHeartbeat> heartbeat;
    if (opened.size() == 3 && opened[2].ok() && opened[2].rows() > 0 && opened[2].int64(0, 0) > 0)
        heartbeat = ObservedHeartbeat {opened[2].int64(0, 0),
                                       static_cast<std::uint64_t>(opened[2].int64(0, 1))};
    if (m_faults.take(FaultKind::Timeout)) {
        // The next statement of this read runs under a 1 ms statement_timeout, JIT-compiled so it
        // surely outlives it even on a tiny test database: PostgreSQL cancels it (57014).
        connection->execOk(
            "SET LOCAL statement_timeout = 1; SET LOCAL jit_above_cost = 0; SET "
            "LOCAL jit_inline_above_cost = 0; SET LOCAL jit_optimize_above_cost = 0");
    }
    observe(heartbeat);
    return std::make_unique<Reader>(*this, *connection, heartbeat, position);
}

void PgStandby::release(store::PgConnection *connection)
{
    {
        std::lock_guard lock(m_poolMutex);
        m_idle.push_back(connection);
    }
    m_poolAvailable.notify_one();
}

int PgStandby::activeReaders() const
{
    std::lock_guard lock(m_poolMutex);
    return static_cast<int>(m_connections.size() - m_idle.size());
}

} // namespace buzz::relay::replication
