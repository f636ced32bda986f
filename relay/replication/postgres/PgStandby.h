#pragma once

// A real PostgreSQL streaming hot standby as a read replica (--read-database-url). A read holds a
// standby connection inside one REPEATABLE READ READ ONLY transaction whose first statement reads
// the heartbeat row: the heartbeat it proves with is exactly the snapshot its rows come from.
// Pause/resume are pg_wal_replay_pause()/pg_wal_replay_resume(), lag is recovery_min_apply_delay,
// replay progress is pg_last_wal_replay_lsn() and pg_last_xact_replay_timestamp().

#include "relay/replication/ReadReplica.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {
class PgConnection;
}

namespace buzz::relay::replication {

class PgStandby final : public ReadReplica
{
public:
    struct Config
    {
        int index = 0;
        std::string url;
        int poolSize = 4;
        std::chrono::milliseconds statementTimeout {2000};
    };

    // What the standby said last time it was asked (refresh()).
    struct Status
    {
        bool reachable = false;
        std::optional<ObservedHeartbeat> heartbeat;
        std::int64_t replayLsn = 0; // pg_last_wal_replay_lsn()
        std::int64_t receiveLsn = 0; // pg_last_wal_receive_lsn()
        std::optional<std::int64_t> replayTimestampMs; // pg_last_xact_replay_timestamp()
        std::int64_t replayAgeMs = -1; // server now − that timestamp
        std::string pauseState = "not paused"; // pg_get_wal_replay_pause_state()
        std::int64_t applyDelayMs = 0; // recovery_min_apply_delay
        std::string error;
    };

    // Connects its control connection and checks the server is in recovery (a standby).
    static std::unique_ptr<PgStandby> open(const Config &config, std::string &error);
    ~PgStandby() override;

    int index() const override { return m_config.index; }
    std::string name() const override { return "replica-" + std::to_string(m_config.index); }
    std::string location() const override { return m_location; }

    std::optional<ObservedHeartbeat> heartbeat() const override;
    std::int64_t appliedPosition() const override;
    bool paused() const override;
    bool setPaused(bool paused) override;
    std::int64_t lagMs() const override;
    bool setLagMs(std::int64_t lagMs) override;
    ReplicaFaults &faults() override { return m_faults; }
    const ReplicaFaults &faults() const override { return m_faults; }
    // A timeout fault is a real one: the next statement runs under a tiny statement_timeout and
    // PostgreSQL cancels it (57014), rather than the router refusing the read in its place.
    bool runsTimeoutFault() const override { return true; }
    std::unique_ptr<ReplicaReader> acquireReader(std::chrono::milliseconds wait,
                                                 AcquireFailure &failure) override;
    int poolSize() const override { return m_config.poolSize; }
    int activeReaders() const override;

    // Asks the standby for its heartbeat row, replay position and pause state (the driver does
    // every 100 ms; a read refreshes the heartbeat too). False when it cannot be reached.
    bool refresh();
    Status status() const;
    // The standby's replay position reached `lsn` (after refresh()).
    bool replayedThrough(std::int64_t lsn);

private:
    class Reader;
    explicit PgStandby(Config config);
    void observe(const std::optional<ObservedHeartbeat> &heartbeat);
    void release(store::PgConnection *connection);
    // A connection on the control connection's mutex (admin statements, refresh).
    std::unique_ptr<store::PgConnection> m_control;
    mutable std::mutex m_controlMutex;

    Config m_config;
    std::string m_location;
    ReplicaFaults m_faults;

    mutable std::mutex m_statusMutex;
    Status m_status;

    mutable std::mutex m_poolMutex;
    std::condition_variable m_poolAvailable;
    std::vector<std::unique_ptr<store::PgConnection>> m_connections;
    std::vector<store::PgConnection *> m_idle;
    int m_opening = 0;
    std::chrono::steady_clock::time_point m_unreachableUntil {};
};

} // namespace buzz::relay::replication
