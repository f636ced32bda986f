#pragma once

#include "relay/store/OpenWrites.h"
#include "relay/store/ReaderPool.h"
#include "relay/store/Store.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventReader.h"
#include "relay/store/postgres/PgReadConnection.h"
#include "relay/store/postgres/PgRowWriter.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace buzz::relay::store {

// The PostgreSQL store (store::Store): the writer database of `--database-url`. One writer
// connection runs the group commits on its own thread (buzz-writer), each group one transaction
// with a savepoint per work, exactly as store::SqliteStore does on SQLite; an event is acknowledged
// only after that COMMIT returned (synchronous_commit on: durable on the primary). Reads on the
// writer lease connections of a small pool (autocommit, like SQLite's reader connections).
class PgEventBatch;

class PgStore final : public Store
{
public:
    // A group holds at most this many works: a transaction with more than 64 subtransactions
    // overflows PostgreSQL's per-backend subxid cache, which makes every snapshot on the standby
    // consult pg_subtrans (slow hot-standby reads), so groups stay below it.
    static constexpr std::size_t kMaxGroup = 60;
    static constexpr int kReaderPoolSize = 8;

    // Connects, applies the schema (PgSchema, partitions around `nowSec`) and starts the writer.
    static std::unique_ptr<PgStore> open(const std::string &url, std::int64_t nowSec,
                                         std::string &error);
    ~PgStore() override;

    GroupOutcome writeInGroup(const std::string &community, std::int64_t nowMs,
                              const GroupWork &work) override;
    void writeInGroupAsync(std::string community, std::int64_t nowMs, GroupWork work,
                           GroupDone done) override;
    void finishQueuedWrites() override;
    ConnectionLease leaseWriterConnection() override;
    std::size_t queuedWrites() const override;
    GroupCommitStats groupCommitStats() const override
    {
        return {m_groups.load(std::memory_order_relaxed),
                m_members.load(std::memory_order_relaxed)};
    }
    bool flushDeferredWork() override { return true; } // the GIN index is kept by each insert
    std::int64_t lastLsn() const override { return m_lastLsn.load(); }
    std::optional<std::int64_t> openWriteStartedAtMs() const override;
    std::string describe() const override;
    std::optional<std::string> textMatch(std::string_view search) const override;
    void accept(StoreVisitor &visitor) override { visitor.visit(*this); }
    Shared openShared(std::string &error) override;
    std::unique_ptr<CrossProcessFeed> followOtherProcesses(CrossProcessFeed::Deliver) override;

    const std::string &url() const { return m_url; }
    // A new connection to the writer database (the heartbeat and the admin API use their own).
    std::unique_ptr<PgConnection> connect(std::string &error) const;
    // The writer's current WAL position (pg_current_wal_lsn()), or -1 when it cannot be read.
    std::int64_t currentWalLsn();
    // Groups whose held-back rows could not be inserted together (a duplicate among them), run
    // again one event at a time.
    std::uint64_t retriedGroups() const { return m_retriedGroups.load(); }
    // Round trips of the writer connection so far (PgConnection::roundTrips).
    std::uint64_t writerRoundTrips() const { return m_writer ? m_writer->roundTrips() : 0; }
    // Backend pid of the writer connection (its transactions in pg_stat_activity).
    int writerPid() const { return m_writerPid; }

    static std::int64_t parseLsn(std::string_view text); // "16/B374D848" → number

    // Live fan-out across processes (store/postgres/PgFanoutListener): the NOTIFY channel of this
    // database schema, and the token that marks this process's rows in fanout_log.
    const std::string &fanoutChannel() const { return m_fanoutChannel; }
    const std::string &fanoutOrigin() const { return m_fanoutOrigin; }
    // fanout_log keeps this many newest rows: a listener away for longer misses the older ones.
    static constexpr std::int64_t kFanoutLogRetention = 100000;

private:
    PgStore() = default;

    class Transaction;
    struct Member;
    struct Announcement;
    static const std::string kLogFanoutSql;
    static std::string fanoutTrimSql();
    PgParams fanoutParams(const std::vector<Announcement> &announced) const;
    void runUntilStopped();
    void runGroup(const std::vector<Member *> &members);
    bool attemptGroup(const std::vector<Member *> &members, bool batched);
    bool m_earlierRowsInSavepoint = false; // the current work's savepoint holds earlier rows
    bool ensureWriter();
    // A connection to whichever listed server answers, read-only: the reads of a failover gap.
    std::unique_ptr<PgConnection> connectToAnyServer();
    void finish(const std::vector<Member *> &members);

    std::string m_url;
    std::mutex m_writerMutex; // one group at a time on the writer connection
    std::unique_ptr<PgConnection> m_writer;
    int m_writerPid = 0;
    bool m_standbyReadsInGap = false; // the standby applies every acknowledged commit
    std::string m_fanoutChannel;
    std::string m_fanoutOrigin;
    std::uint64_t m_fanoutGroups = 0; // groups that logged fan-out rows (trimmed every 1,024)

    mutable std::mutex m_queueMutex;
    std::condition_variable m_queued;
    std::deque<Member *> m_queue;
    bool m_stopping = false;
    std::thread m_thread;
    std::atomic<std::uint64_t> m_groups {0};
    std::atomic<std::uint64_t> m_members {0};
    std::atomic<std::uint64_t> m_retriedGroups {0};
    std::atomic<std::int64_t> m_lastLsn {0};

    ReaderPool<PgConnection, PgReadConnection> m_readers {
        kReaderPoolSize, [this](std::string &error) {
            return PgConnection::open(m_url, error);
        }};

    OpenWrites m_openWrites; // started and not finished, queued ones included
};

} // namespace buzz::relay::store
