#include "relay/replication/postgres/PgStandbySet.h"

#include "relay/replication/ReplicaReport.h"
#include "relay/store/postgres/PgStore.h"

#include <QLoggingCategory>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

namespace {
constexpr auto kStandbyDriverPeriod = std::chrono::milliseconds(100);
constexpr auto kCatchUpPoll = std::chrono::milliseconds(2);
} // namespace

PgStandbySet::PgStandbySet(store::PgStore &writer, ReplicationConfig config)
    : m_writer(writer)
    , m_config(std::move(config))
    , m_ring(FenceRing::randomEpoch())
    , m_heartbeat(writer, m_ring, m_config.clock)
    , m_budgetMs(m_config.budgetMs)
    , m_historyPermits(std::clamp(m_config.historyReadCap(), 1, 1024))
{ }

std::unique_ptr<PgStandbySet> PgStandbySet::attach(store::PgStore &writer,
                                                   const std::vector<std::string> &readUrls,
                                                   ReplicationConfig config, std::string &error)
{
    if (!config.clock)
        config.clock = RelayClock::system();
    config.budgetMs = clampReadBudgetMs(config.budgetMs);
    config.readPoolSize = std::max(1, config.readPoolSize);
    config.replicas = static_cast<int>(readUrls.size());
    std::unique_ptr<PgStandbySet> set(new PgStandbySet(writer, config));
    if (readUrls.empty())
        return set;
    if (!set->m_heartbeat.connect(error)) {
        error = "cannot open the heartbeat connection to the PostgreSQL writer: " + error;
        return nullptr;
    }
    for (std::size_t i = 0; i < readUrls.size(); ++i) {
        PgStandby::Config standbyConfig {static_cast<int>(i), readUrls[i], config.readPoolSize,
                                         config.statementTimeout};
        auto standby = PgStandby::open(standbyConfig, error);
        if (!standby)
            return nullptr;
        set->m_standbys.push_back(std::move(standby));
    }
    // The standby has the schema once it replayed the writer's schema transaction. A relay that
    // drives its own heartbeat is proved from the start; a test that beats by hand (no driver)
    // starts unproved, as the SQLite replicas do.
    if (config.runDriver)
        set->heartbeat();
    set->waitCaughtUp(std::chrono::seconds(10));
    for (const std::string &line : set->describe())
        qCInfo(lcReplica).noquote() << line.c_str();
    if (config.runDriver)
        set->m_driver = std::thread([raw = set.get()] { raw->runDriver(); });
    return set;
}

PgStandbySet::~PgStandbySet()
{
    m_stopping.store(true);
    m_driverWake.notify_all();
    if (m_driver.joinable())
        m_driver.join();
}

void PgStandbySet::setBudgetMs(std::int64_t budgetMs)
{
    m_budgetMs.store(clampReadBudgetMs(budgetMs));
}

std::vector<ReplicaProof> PgStandbySet::proofs() const
{
    return ReplicaReport::proofs(ReplicaReport::view(m_standbys), m_ring);
}

bool PgStandbySet::heartbeat()
{
    if (m_standbys.empty())
        return false;
    return m_heartbeat.beat();
}

void PgStandbySet::refresh()
{
    std::int64_t appliedByAll = -1;
    for (auto &standby : m_standbys) {
        standby->refresh();
        const std::int64_t applied = standby->appliedPosition(); // 0: not known
        appliedByAll = appliedByAll < 0 ? applied : std::min(appliedByAll, applied);
    }
    if (appliedByAll > 0)
        m_scopes.setAppliedByAll(appliedByAll);
}

bool PgStandbySet::waitCaughtUp(std::chrono::milliseconds timeout)
{
    const std::int64_t target = m_writer.currentWalLsn();
    if (target < 0)
        return false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const bool caughtUp =
            std::all_of(m_standbys.begin(), m_standbys.end(),
                        [&](const auto &standby) { return standby->replayedThrough(target); });
        if (caughtUp)
            return true;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        // The standby reports its replay position only when asked.
        std::this_thread::sleep_for(kCatchUpPoll);
    }
}

nlohmann::json PgStandbySet::state() const
{
    const std::int64_t nowMs = m_config.clock->nowMs();
    const auto latest = m_ring.latest();
    nlohmann::json replicas = nlohmann::json::array();
    for (const auto &standby : m_standbys) {
        const PgStandby::Status status = standby->status();
        nlohmann::json entry = ReplicaReport::entry(*standby, m_ring, nowMs);
        entry["kind"] = "postgresql_standby";
        entry["location"] = standby->location();
        entry["reachable"] = status.reachable;
        entry["applied_lsn"] = status.replayLsn;
        entry["received_lsn"] = status.receiveLsn;
        entry["replay_timestamp_ms"] = status.replayTimestampMs
            ? nlohmann::json(*status.replayTimestampMs)
            : nlohmann::json(nullptr);
        entry["replay_age_ms"] = status.replayAgeMs;
        entry["pause_state"] = status.pauseState;
        if (!status.error.empty())
            entry["error"] = status.error;
        replicas.push_back(std::move(entry));
    }
    const auto oldestWrite = m_heartbeat.lastOldestWriteAgeMs();
    // The writer's WAL position now, the target /admin/wait-caught-up waits for: a caught-up
    // standby's applied_lsn equals it. The position of the relay's last event commit would be
    // behind every heartbeat since, so a caught-up standby looked ahead of its writer.
    const std::int64_t writerLsn = m_writer.currentWalLsn();
    return {
        {"store", "postgresql"},
        {"writer",
         {{"lsn", writerLsn >= 0 ? writerLsn : m_writer.lastLsn()},
          {"location", m_writer.describe()},
          {"heartbeat_token", latest ? nlohmann::json(latest->token) : nlohmann::json(nullptr)},
          {"epoch", m_ring.epoch()},
          {"ring_entries", m_ring.size()},
          {"oldest_open_write_age_ms",
           oldestWrite ? nlohmann::json(*oldestWrite) : nlohmann::json(nullptr)},
          {"fence_wall", latest ? nlohmann::json(latest->fenceWallSec) : nlohmann::json(nullptr)}}},
        {"budget_ms", m_budgetMs.load()},
        {"now_ms", nowMs},
        {"clock_offset_ms", m_config.clock->offsetMs()},
        {"read_pool_size", m_config.readPoolSize},
        {"history_read_cap", m_config.historyReadCap()},
        {"replicas", std::move(replicas)},
    };
}

std::string PgStandbySet::metricsText() const
{
    std::string out = m_metrics.text();
    if (m_standbys.empty())
        return out;
    out += ReplicaReport::poolGauges(ReplicaReport::view(m_standbys));
    out += "# HELP buzz_db_replica_replay_age_ms Age of the last transaction the standby "
           "replayed (pg_last_xact_replay_timestamp).\n# TYPE buzz_db_replica_replay_age_ms "
           "gauge\n";
    for (const auto &standby : m_standbys)
        out += "buzz_db_replica_replay_age_ms{pool=\"" + standby->name() + "\"} "
            + std::to_string(standby->status().replayAgeMs) + '\n';
    return out;
}

std::vector<std::string> PgStandbySet::describe() const
{
    std::vector<std::string> lines;
    lines.push_back("database: writer " + m_writer.describe() + " + "
                    + std::to_string(m_standbys.size()) + " read replica(s)");
    for (const auto &standby : m_standbys)
        lines.push_back("database: " + standby->name() + " postgresql standby "
                        + standby->location() + ", " + std::to_string(standby->poolSize())
                        + " reader connections");
    lines.push_back(ReplicaReport::routingLine(m_budgetMs.load()));
    return lines;
}

void PgStandbySet::runDriver()
{
    std::int64_t lastBeatMs = 0;
    while (!m_stopping.load()) {
        const std::int64_t nowMs = m_config.clock->nowMs();
        if (nowMs - lastBeatMs >= 500 || nowMs < lastBeatMs) {
            m_heartbeat.beat();
            lastBeatMs = nowMs;
        }
        refresh();
        std::unique_lock lock(m_driverMutex);
        m_driverWake.wait_for(lock, kStandbyDriverPeriod, [this] { return m_stopping.load(); });
    }
}

} // namespace buzz::relay::replication
