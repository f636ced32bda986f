#pragma once

// One simulated read replica: its own SQLite database (in memory or a file under --data) that
// replays the writer's commit log strictly in LSN order, plus its pool of reader connections.
// A read holds a reader connection and a shared snapshot lock, so the heartbeat it proves with is
// exactly the state its rows come from (the real relay reads the heartbeat row as the first
// statement of a REPEATABLE READ transaction for the same reason).

#include "relay/replication/CommitRecord.h"
#include "relay/replication/FenceRing.h"
#include "relay/replication/ReadReplica.h"
#include "relay/replication/ReplicaFaults.h"
#include "relay/store/StoreExtension.h"
#include "relay/store/sqlite/SqliteReadConnection.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

namespace buzz::relay::store {
class SqliteStore;
class SqliteConnection;
} // namespace buzz::relay::store

namespace buzz::relay::replication {

class Replica final : public ReadReplica
{
public:
    struct Config
    {
        int index = 0;
        std::optional<std::string> dataDir; // nullopt: in memory
        int poolSize = 4;
        std::int64_t lagMs = 0;
        std::chrono::milliseconds statementTimeout {2000};
        store::StoreExtensions extensions; // the writer's: a replica's schema is the same
    };

    // A borrowed reader connection with the snapshot it proves. Releases both when destroyed.
    class ReaderLease final : public ReplicaReader
    {
    public:
        ReaderLease(Replica &replica, store::SqliteConnection *connection,
                    std::shared_lock<std::shared_mutex> snapshot);
        ~ReaderLease() override;
        ReaderLease(const ReaderLease &) = delete;
        ReaderLease &operator=(const ReaderLease &) = delete;

        store::ReadConnection &connection() override { return m_read; }
        store::SqliteConnection &readerConnection() const { return *m_connection; }
        const std::optional<ObservedHeartbeat> &heartbeat() const override { return m_heartbeat; }
        std::int64_t position() const override { return m_position; }
        // The statement ran past the reader statement timeout (SQLSTATE 57014 analogue).
        bool deadlineExceeded() const override;

    private:
        Replica &m_replica;
        store::SqliteConnection *m_connection;
        store::SqliteReadConnection m_read;
        std::shared_lock<std::shared_mutex> m_snapshot;
        std::optional<ObservedHeartbeat> m_heartbeat;
        std::int64_t m_position; // applied LSN: no batch commits while the lease holds the lock
        std::chrono::steady_clock::time_point m_deadline;
    };

    static std::unique_ptr<Replica> open(const Config &config, std::string &error);
    ~Replica() override;
    Replica(const Replica &) = delete;
    Replica &operator=(const Replica &) = delete;

    int index() const override { return m_config.index; }
    std::string name() const override { return "replica-" + std::to_string(m_config.index); }
    std::string location() const override { return m_location; }

    std::int64_t appliedLsn() const { return m_appliedLsn.load(); }
    std::optional<ObservedHeartbeat> heartbeat() const override;
    std::int64_t appliedPosition() const override { return appliedLsn(); }
    // Applies the records (already in LSN order, all newer than appliedLsn) in one transaction.
    bool apply(std::span<const CommitRecord> records);
    // Replaces everything with a snapshot of the writer (`database`) and goes on from the LSN the
    // snapshot is at: at start, and whenever the records it would replay have been trimmed from
    // the commit log. A later seed keeps the last heartbeat replayed: the snapshot holds all the
    // replica held then, so that heartbeat still proves what it proved (age is over-stated).
    bool seed(store::SqliteStore &database);
    // Seeds taken after the first one (the replica fell behind the trimmed commit log).
    std::uint64_t reseeds() const { return m_reseeds.load(); }

    bool paused() const override { return m_paused.load(); }
    bool setPaused(bool paused) override
    {
        m_paused.store(paused);
        return true;
    }
    std::int64_t lagMs() const override { return m_lagMs.load(); }
    bool setLagMs(std::int64_t lagMs) override
    {
        m_lagMs.store(lagMs < 0 ? 0 : lagMs);
        return true;
    }
    ReplicaFaults &faults() override { return m_faults; }
    const ReplicaFaults &faults() const override { return m_faults; }

    // A reader connection within `wait`, else nullptr (pool exhausted, or a busy fault).
    std::unique_ptr<ReaderLease> acquire(std::chrono::milliseconds wait);
    std::unique_ptr<ReplicaReader> acquireReader(std::chrono::milliseconds wait,
                                                 AcquireFailure &failure) override
    {
        auto reader = acquire(wait);
        failure = reader ? AcquireFailure::None : AcquireFailure::Busy;
        return reader;
    }

    int poolSize() const override { return m_config.poolSize; }
    int activeReaders() const override;

private:
    explicit Replica(Config config);
    void releaseReader(store::SqliteConnection *connection);

    Config m_config;
    std::string m_location;
    std::unique_ptr<store::SqliteConnection> m_applier;
    std::vector<std::unique_ptr<store::SqliteConnection>> m_readers;

    // Reads share the snapshot; a replay batch takes it exclusively. New readers pass through the
    // turnstile so a steady stream of reads cannot starve replication.
    std::shared_mutex m_snapshot;
    std::mutex m_turnstile;
    std::optional<ObservedHeartbeat> m_heartbeat; // guarded by m_snapshot
    std::atomic<std::int64_t> m_appliedLsn {0};
    bool m_seeded = false; // guarded by m_snapshot
    std::atomic<std::uint64_t> m_reseeds {0};

    mutable std::mutex m_poolMutex;
    std::condition_variable m_poolAvailable;
    std::vector<store::SqliteConnection *> m_idle;

    std::atomic<bool> m_paused {false};
    std::atomic<std::int64_t> m_lagMs;
    ReplicaFaults m_faults;
};

} // namespace buzz::relay::replication
