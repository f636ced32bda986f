#include "relay/replication/sqlite/Replica.h"

#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteRowWriter.h"
#include "relay/store/sqlite/SqliteSchema.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QLoggingCategory>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcReplica, "buzz.relay.replication")

namespace buzz::relay::replication {

namespace {
std::atomic<int> g_replicaSerial {0};
} // namespace

Replica::ReaderLease::ReaderLease(Replica &replica, store::SqliteConnection *connection,
                                  std::shared_lock<std::shared_mutex> snapshot)
    : m_replica(replica)
    , m_connection(connection)
    , m_read(*connection)
    , m_snapshot(std::move(snapshot))
    , m_heartbeat(replica.m_heartbeat)
    , m_position(replica.m_appliedLsn.load())
    , m_deadline(std::chrono::steady_clock::now() + replica.m_config.statementTimeout)
{
    // Bounded statements on readers: an interrupted step surfaces as a timeout, never a re-run.
    m_connection->interruptAfter(&m_deadline);
}

Replica::ReaderLease::~ReaderLease()
{
    m_connection->interruptAfter(nullptr);
    m_snapshot.unlock();
    m_replica.releaseReader(m_connection);
}

bool Replica::ReaderLease::deadlineExceeded() const
{
    return std::chrono::steady_clock::now() > m_deadline;
}

Replica::Replica(Config config)
    : m_config(std::move(config))
    , m_lagMs(m_config.lagMs)
{ }

std::unique_ptr<Replica> Replica::open(const Config &config, std::string &error)
{
    std::unique_ptr<Replica> replica(new Replica(config));
    std::string uri;
    if (config.dataDir) {
        const auto path = std::filesystem::path(*config.dataDir)
            / ("replica-" + std::to_string(config.index) + ".sqlite3");
        // A replica starts from a snapshot of the writer (seed): no state of its own to trust.
        std::error_code ignored;
        for (const char *suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path.string() + suffix, ignored);
        uri = path.string();
        replica->m_location = uri;
    } else {
        uri = "file:buzz-replica-" + std::to_string(::getpid()) + "-"
            + std::to_string(g_replicaSerial.fetch_add(1)) + "?mode=memory&cache=shared";
        replica->m_location = "memory";
    }
    replica->m_applier =
        store::SqliteConnection::open(uri, store::SqliteConnection::Role::Writer, error);
    if (!replica->m_applier)
        return nullptr;
    if (config.dataDir) // a replica need not survive a crash: it is rebuilt from the log
        replica->m_applier->exec("PRAGMA synchronous=OFF;");
    if (!store::SqliteSchema::apply(*replica->m_applier, config.extensions)) {
        error = "replica schema: " + replica->m_applier->lastError();
        return nullptr;
    }
    const int poolSize = std::max(1, config.poolSize);
    replica->m_config.poolSize = poolSize;
    for (int i = 0; i < poolSize; ++i) {
        auto reader =
            store::SqliteConnection::open(uri, store::SqliteConnection::Role::Reader, error);
        if (!reader)
            return nullptr;
        replica->m_idle.push_back(reader.get());
        replica->m_readers.push_back(std::move(reader));
    }
    return replica;
}

Replica::~Replica()
{
    m_idle.clear();
    m_readers.clear(); // readers before the applier: the in-memory database dies with its last
                       // connection
    m_applier.reset();
}

std::optional<ObservedHeartbeat> Replica::heartbeat() const
{
    std::shared_lock lock(const_cast<std::shared_mutex &>(m_snapshot));
    return m_heartbeat;
}

bool Replica::apply(std::span<const CommitRecord> records)
{
    if (records.empty())
        return true;
    std::unique_lock turnstile(m_turnstile);
    std::unique_lock exclusive(m_snapshot);
    turnstile.unlock();

    std::optional<ObservedHeartbeat> heartbeat = m_heartbeat;
    if (!m_applier->exec("BEGIN"))
        return false;
    for (const CommitRecord &record : records) {
        const nlohmann::json change = nlohmann::json::parse(record.change, nullptr, false);
        if (change.is_discarded()) {
            qCWarning(lcReplica) << name().c_str() << "unreadable commit record" << record.lsn;
            m_applier->exec("ROLLBACK");
            return false;
        }
        if (const auto beat = change.find("heartbeat"); beat != change.end()) {
            heartbeat = ObservedHeartbeat {beat->value("token", std::int64_t {0}),
                                           beat->value("epoch", std::uint64_t {0})};
            continue;
        }
        if (!store::SqliteRowWriter::applyChange(*m_applier, change)) {
            qCWarning(lcReplica) << name().c_str() << "cannot apply lsn" << record.lsn << ":"
                                 << m_applier->lastError().c_str();
            m_applier->exec("ROLLBACK");
            return false;
        }
    }
    if (!store::SqliteSchema::beforeReplayCommit(*m_applier, m_config.extensions)
        || !m_applier->exec("COMMIT")) {
        m_applier->exec("ROLLBACK");
        return false;
    }
    m_heartbeat = heartbeat;
    m_appliedLsn.store(records.back().lsn);
    return true;
}

bool Replica::seed(store::SqliteStore &database)
{
    std::unique_lock turnstile(m_turnstile);
    std::unique_lock exclusive(m_snapshot);
    turnstile.unlock();

    std::string error;
    const std::optional<std::int64_t> lsn = database.copySnapshotTo(*m_applier, error);
    if (!lsn) {
        qCWarning(lcReplica) << name().c_str() << "cannot seed:" << error.c_str();
        return false;
    }
    // The copy carries the writer's commit-log tail, which only the writer serves, and the rows
    // the writer has queued for the full-text index, which a replica indexes like a replayed
    // batch's before anyone reads them.
    if (!m_applier->exec("BEGIN") || !m_applier->exec("DELETE FROM commit_log")
        || !store::SqliteSchema::beforeReplayCommit(*m_applier, m_config.extensions)
        || !m_applier->exec("COMMIT")) {
        qCWarning(lcReplica) << name().c_str() << "cannot seed:" << m_applier->lastError().c_str();
        m_applier->exec("ROLLBACK");
        return false;
    }
    if (m_seeded)
        m_reseeds.fetch_add(1);
    else
        m_heartbeat.reset(); // a heartbeat is learned by replaying one
    m_seeded = true;
    m_appliedLsn.store(*lsn);
    return true;
}

std::unique_ptr<Replica::ReaderLease> Replica::acquire(std::chrono::milliseconds wait)
{
    store::SqliteConnection *connection = nullptr;
    {
        std::unique_lock lock(m_poolMutex);
        if (m_faults.take(FaultKind::Busy)) {
            // Every reader connection is held elsewhere: the bounded wait runs out.
            m_poolAvailable.wait_for(lock, wait, [] { return false; });
            return nullptr;
        }
        if (!m_poolAvailable.wait_for(lock, wait, [this] { return !m_idle.empty(); }))
            return nullptr;
        connection = m_idle.back();
        m_idle.pop_back();
    }
    std::unique_lock turnstile(m_turnstile);
    std::shared_lock snapshot(m_snapshot);
    turnstile.unlock();
    return std::make_unique<ReaderLease>(*this, connection, std::move(snapshot));
}

void Replica::releaseReader(store::SqliteConnection *connection)
{
    {
        std::lock_guard lock(m_poolMutex);
        m_idle.push_back(connection);
    }
    m_poolAvailable.notify_one();
}

int Replica::activeReaders() const
{
    std::lock_guard lock(m_poolMutex);
    return m_config.poolSize - static_cast<int>(m_idle.size());
}

} // namespace buzz::relay::replication
