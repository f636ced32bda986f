#include "relay/replication/sqlite/ReplicaSet.h"

#include "relay/replication/ReplicaReport.h"
#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QLoggingCategory>

#include <nlohmann/json.hpp>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

namespace {
constexpr int kFetchBatch = 5000;
constexpr std::size_t kApplyBatch = 1000;
constexpr auto kReplicaDriverPeriod = std::chrono::milliseconds(10);
} // namespace

ReplicaSet::ReplicaSet(store::SqliteStore &database, ReplicationConfig config)
    : m_database(database)
    , m_config(std::move(config))
    , m_ring(FenceRing::randomEpoch())
    , m_heartbeat(database, m_ring, m_config.clock)
    , m_budgetMs(m_config.budgetMs)
    , m_historyPermits(std::clamp(m_config.historyReadCap(), 1, 1024))
{ }

std::unique_ptr<ReplicaSet> ReplicaSet::attach(store::SqliteStore &database,
                                               ReplicationConfig config, std::string &error)
{
    if (!config.clock)
        config.clock = RelayClock::system();
    config.budgetMs = clampReadBudgetMs(config.budgetMs);
    config.readPoolSize = std::max(1, config.readPoolSize);
    std::unique_ptr<ReplicaSet> set(new ReplicaSet(database, config));
    set->m_maxTail = std::size_t(database.commitLogRetention().maxBacklogRecords);
    if (config.replicas > 0) // the log is kept from here on, until the replicas report progress
        database.setReplicasAppliedThrough(0);
    for (int i = 0; i < config.replicas; ++i) {
        Replica::Config replicaConfig {i,
                                       config.dataDir,
                                       config.readPoolSize,
                                       config.lagMs,
                                       config.statementTimeout,
                                       database.extensions()};
        auto replica = Replica::open(replicaConfig, error);
        if (!replica) {
            error = "replica-" + std::to_string(i) + ": " + error;
            return nullptr;
        }
        if (!replica->seed(database)) {
            error = "replica-" + std::to_string(i) + ": cannot copy the writer database";
            return nullptr;
        }
        set->m_replicas.push_back(std::move(replica));
    }
    if (config.replicas == 0)
        return set;
    // Replay starts where the oldest snapshot is.
    set->m_fetchedThrough = set->m_replicas.front()->appliedLsn();
    for (const auto &replica : set->m_replicas)
        set->m_fetchedThrough = std::min(set->m_fetchedThrough, replica->appliedLsn());
    if (!set->m_heartbeat.initialize()) {
        error = "cannot create the replica heartbeat row on the writer";
        return nullptr;
    }
    for (const std::string &line : set->describe())
        qCInfo(lcReplica).noquote() << line.c_str();
    if (config.runDriver)
        set->m_driver = std::thread([raw = set.get()] { raw->runDriver(); });
    return set;
}

ReplicaSet::~ReplicaSet()
{
    m_stopping.store(true);
    m_driverWake.notify_all();
    if (m_driver.joinable())
        m_driver.join();
}

void ReplicaSet::setBudgetMs(std::int64_t budgetMs)
{
    m_budgetMs.store(clampReadBudgetMs(budgetMs));
}

bool ReplicaSet::heartbeat()
{
    if (m_replicas.empty())
        return false;
    return m_heartbeat.beat();
}

void ReplicaSet::fetchNewRecords()
{
    for (;;) {
        store::ConnectionLease lease = m_database.leaseWriterConnection();
        if (!lease)
            return;
        auto select = store::SqliteReadConnection::of(lease).prepare(
            "SELECT lsn, committed_at_ms, change FROM "
            "commit_log WHERE lsn > ?1 ORDER BY lsn LIMIT ?2");
        if (!select.valid())
            return;
        select.bind(1, m_fetchedThrough);
        select.bind(2, kFetchBatch);
        int fetched = 0;
        while (select.step()) {
            const std::int64_t lsn = select.int64(0);
            // LSNs are contiguous (the log loses records only at its old end): a jump means the
            // writer trimmed records this tier never fetched, and whoever needs them re-seeds.
            if (lsn != m_fetchedThrough + 1)
                m_tail.clear();
            m_tail.push_back(CommitRecord {lsn, select.int64(1), std::string(select.text(2))});
            m_fetchedThrough = lsn;
            ++fetched;
        }
        // A replica that stays behind (paused, failing) costs at most the log's backlog bound here
        // too: past it, it re-seeds when it replays again.
        while (m_tail.size() > m_maxTail)
            m_tail.pop_front();
        if (fetched < kFetchBatch)
            return;
    }
}

void ReplicaSet::pump()
{
    std::lock_guard lock(m_pumpMutex);
    fetchNewRecords();
    const std::int64_t nowMs = m_config.clock->nowMs();
    bool progressed = false;
    std::vector<CommitRecord> batch;
    for (auto &replica : m_replicas) {
        if (replica->paused())
            continue;
        if (fellBehindTheLog(*replica)) {
            qCInfo(lcReplica) << replica->name().c_str()
                              << "is behind the trimmed commit log at lsn" << replica->appliedLsn()
                              << ", re-seeding from the writer";
            if (!replica->seed(m_database))
                continue;
            progressed = true;
        }
        const std::int64_t horizonMs = nowMs - replica->lagMs();
        auto next = std::upper_bound(
            m_tail.begin(), m_tail.end(), replica->appliedLsn(),
            [](std::int64_t lsn, const CommitRecord &record) { return lsn < record.lsn; });
        // Strictly in LSN order: the first record that is not yet old enough stops the replay.
        while (next != m_tail.end() && next->committedAtMs <= horizonMs) {
            batch.clear();
            while (next != m_tail.end() && next->committedAtMs <= horizonMs
                   && batch.size() < kApplyBatch)
                batch.push_back(*next++);
            if (!replica->apply(batch)) {
                qCWarning(lcReplica)
                    << replica->name().c_str() << "replay stopped at lsn" << batch.front().lsn;
                break;
            }
            progressed = true;
        }
    }
    std::int64_t minApplied = m_fetchedThrough;
    for (const auto &replica : m_replicas)
        minApplied = std::min(minApplied, replica->appliedLsn());
    while (!m_tail.empty() && m_tail.front().lsn <= minApplied)
        m_tail.pop_front();
    if (!m_replicas.empty()) {
        m_database.setReplicasAppliedThrough(minApplied);
        m_scopes.setAppliedByAll(minApplied);
    }
    if (progressed) {
        std::lock_guard progressLock(m_progressMutex);
        m_progress.notify_all();
    }
}

bool ReplicaSet::fellBehindTheLog(const Replica &replica) const
{
    const std::int64_t applied = replica.appliedLsn();
    if (applied >= m_fetchedThrough)
        return false; // every record it needs is still to be fetched, from the log
    return m_tail.empty() || applied + 1 < m_tail.front().lsn;
}

void ReplicaSet::tick()
{
    const std::int64_t nowMs = m_config.clock->nowMs();
    if (nowMs - m_lastBeatMs >= HeartbeatWriter::kIntervalMs || nowMs < m_lastBeatMs) {
        heartbeat();
        m_lastBeatMs = nowMs;
    }
    pump();
}

bool ReplicaSet::waitCaughtUp(std::chrono::milliseconds timeout)
{
    const std::int64_t target = writerLsn();
    const auto caughtUp = [&] {
        return std::all_of(m_replicas.begin(), m_replicas.end(),
                           [&](const auto &replica) { return replica->appliedLsn() >= target; });
    };
    std::unique_lock lock(m_progressMutex);
    return m_progress.wait_for(lock, timeout, caughtUp);
}

ReplicaProof ReplicaSet::proof(int index) const
{
    return m_ring.resolve(m_replicas.at(index)->heartbeat());
}

std::vector<ReplicaProof> ReplicaSet::proofs() const
{
    return ReplicaReport::proofs(ReplicaReport::view(m_replicas), m_ring);
}

std::int64_t ReplicaSet::writerLsn() const
{
    store::ConnectionLease lease = m_database.leaseWriterConnection();
    if (!lease)
        return 0;
    auto select = store::SqliteReadConnection::of(lease).prepare(
        "SELECT COALESCE(MAX(lsn), 0) FROM commit_log");
    return select.valid() && select.step() ? select.int64(0) : 0;
}

bool ReplicaSet::acquireHistoryPermit(std::chrono::milliseconds wait)
{
    return m_historyPermits.try_acquire_for(wait);
}

nlohmann::json ReplicaSet::state() const
{
    const std::int64_t nowMs = m_config.clock->nowMs();
    const auto latest = m_ring.latest();
    nlohmann::json replicas = nlohmann::json::array();
    for (const auto &replica : m_replicas) {
        nlohmann::json entry = ReplicaReport::entry(*replica, m_ring, nowMs);
        entry["applied_lsn"] = replica->appliedLsn();
        entry["reseeds"] = replica->reseeds();
        replicas.push_back(std::move(entry));
    }
    return {
        {"writer",
         {{"lsn", writerLsn()},
          {"commit_log_first_lsn", m_database.commitLogFirstLsn()},
          {"heartbeat_token", latest ? nlohmann::json(latest->token) : nlohmann::json(nullptr)},
          {"epoch", m_ring.epoch()},
          {"ring_entries", m_ring.size()},
          {"fence_wall", latest ? nlohmann::json(latest->fenceWallSec) : nlohmann::json(nullptr)}}},
        {"budget_ms", m_budgetMs.load()},
        {"now_ms", nowMs},
        {"clock_offset_ms", m_config.clock->offsetMs()},
        {"read_pool_size", m_config.readPoolSize},
        {"history_read_cap", m_config.historyReadCap()},
        {"replicas", std::move(replicas)},
    };
}

std::string ReplicaSet::metricsText() const
{
    std::string out = m_metrics.text();
    if (m_replicas.empty())
        return out;
    out += "# HELP buzz_replica_reseeds_total Times a replica behind the trimmed commit log was "
           "copied from the writer again.\n# TYPE buzz_replica_reseeds_total counter\n";
    for (const auto &replica : m_replicas)
        out += "buzz_replica_reseeds_total{pool=\"" + replica->name() + "\"} "
            + std::to_string(replica->reseeds()) + '\n';
    out += ReplicaReport::poolGauges(ReplicaReport::view(m_replicas));
    return out;
}

std::vector<std::string> ReplicaSet::describe() const
{
    std::vector<std::string> lines;
    lines.push_back(std::string("database: writer ")
                    + (m_database.inMemory() ? "sqlite (memory)" : "sqlite " + *m_config.dataDir)
                    + " + " + std::to_string(m_replicas.size()) + " read replica(s)");
    for (const auto &replica : m_replicas)
        lines.push_back("database: " + replica->name() + " sqlite " + replica->location() + ", lag "
                        + std::to_string(replica->lagMs()) + " ms, "
                        + std::to_string(replica->poolSize()) + " reader connections");
    lines.push_back(ReplicaReport::routingLine(m_budgetMs.load()));
    return lines;
}

void ReplicaSet::runDriver()
{
    while (!m_stopping.load()) {
        tick();
        std::unique_lock lock(m_driverMutex);
        m_driverWake.wait_for(lock, kReplicaDriverPeriod, [this] { return m_stopping.load(); });
    }
}

} // namespace buzz::relay::replication
