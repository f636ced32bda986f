#pragma once

#include "relay/store/ConnectionLease.h"
#include "relay/store/OpenWrites.h"
#include "relay/store/ReaderPool.h"
#include "relay/store/Store.h"
#include "relay/store/StoreExtension.h"
#include "relay/store/WriteTransaction.h"
#include "relay/store/sqlite/ChangeRecord.h"
#include "relay/store/sqlite/CommitLogTrimmer.h"
#include "relay/store/sqlite/DataDirLock.h"
#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"
#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteRowWriter.h"
#include "relay/store/sqlite/WalCheckpointer.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace buzz::relay::store {

// The SQLite store (store::Store), the embedded default: one writer connection (all writes
// serialised by a mutex, which also makes every per-(community, channel) canvas check-and-insert
// atomic) and, for file databases, a small pool of read-only connections on the same file. In
// memory there is a single connection shared under the writer mutex.
class SqliteStore final : public Store
{
public:
    class WriteTransaction final : public store::WriteTransaction
    {
    public:
        ~WriteTransaction() override;
        WriteTransaction(const WriteTransaction &) = delete;
        WriteTransaction &operator=(const WriteTransaction &) = delete;

        SqliteConnection &connection() { return *m_connection; }
        SqliteEventReader &reader() override { return m_reader; }
        SqliteRowWriter &rows() override { return m_rows; }
        std::int64_t startedAtMs() const override { return m_startedAtMs; }
        bool hasChanges() const { return !m_change.empty(); }
        // The one writer connection (and the data-directory lock) already serialise every write.
        bool lockChannel(const std::string &, const std::string &) override { return true; }

        // Appends the commit-log record (when anything changed) and commits. False → rolled back.
        // Inside a group (writeInGroup) this releases the member's savepoint instead: its rows
        // become durable with the group's COMMIT, which writeInGroup reports.
        bool commit(std::int64_t committedAtMs) override;
        void rollback() override;
        // A commit-log record written as is (the replica heartbeat), in this transaction.
        bool appendRecord(std::int64_t committedAtMs, const std::string &text);

    private:
        friend class SqliteStore;
        enum class Scope { Transaction, Savepoint };
        WriteTransaction(SqliteStore &database, std::unique_lock<std::mutex> lock,
                         std::string community, std::int64_t startedAtMs, Scope scope);
        bool appendCommitLog(std::int64_t committedAtMs, std::int64_t &lsn);
        bool insertRecord(std::int64_t committedAtMs, std::string_view text, std::int64_t &lsn);

        SqliteStore &m_database;
        std::unique_lock<std::mutex> m_lock;
        SqliteConnection *m_connection;
        ChangeRecord m_change;
        SqliteEventReader m_reader;
        SqliteRowWriter m_rows;
        std::int64_t m_startedAtMs;
        Scope m_scope;
        bool m_open = false;
        bool m_released = false; // a savepoint commit: kept until the group's COMMIT
        std::int64_t m_lsn = 0; // its newest commit-log record, if it wrote one
    };

    // A work gets this class's transaction (its connection() is the writer's SQLite connection).
    static WriteTransaction &sqlite(store::WriteTransaction &transaction)
    {
        return static_cast<WriteTransaction &>(transaction);
    }

    ~SqliteStore() override;
    // `extensions` are part of the schema (created at open) and run before every writer COMMIT.
    static std::unique_ptr<SqliteStore> open(const std::optional<std::string> &dataDir,
                                             std::string &error, StoreExtensions extensions = {});

    // Blocks until the writer is free; nullptr when BEGIN fails.
    std::unique_ptr<WriteTransaction> beginWrite(const std::string &community, std::int64_t nowMs);

    // Group commit. Works queue; the database's group thread runs every queued work in one writer
    // transaction, each under its own savepoint (so one work's rollback never touches another's
    // rows), then commits once and reports to each. Works run strictly in queue order on one
    // connection, so each sees the rows of those before it, exactly as if they had been separate
    // transactions in that order; each work's commit-log record is its own. Returns only after the
    // group's COMMIT (or its failure): a caller never learns of an uncommitted row.
    GroupOutcome writeInGroup(const std::string &community, std::int64_t nowMs,
                              const GroupWork &work) override;
    // Runs what is queued and stops the group thread; later writes run on their caller's thread.
    void finishQueuedWrites() override;
    // The same without blocking the caller: `done` runs on the group thread after the group's
    // COMMIT (or its failure), so it must be short (post the answer elsewhere). A caller that
    // would only wait lets its thread verify the next event meanwhile.
    void writeInGroupAsync(std::string community, std::int64_t nowMs, GroupWork work,
                           GroupDone done) override;

    // A connection on the writer database (reader pool on files, the writer itself in memory).
    // Reads choose between it and a replica through routing, never here.
    ConnectionLease leaseWriterConnection() override;

    // Ingests waiting for (or running in) a group right now.
    std::size_t queuedWrites() const override;
    GroupCommitStats groupCommitStats() const override
    {
        return {m_groups.load(std::memory_order_relaxed),
                m_members.load(std::memory_order_relaxed)};
    }

    // Runs every extension's deferred before-commit work in a transaction of its own (no row
    // change, no commit-log record). A read of an extension's structure on the writer calls this
    // first, so it sees every committed row.
    bool flushDeferredWork() override;
    const StoreExtensions &extensions() const { return m_extensions; }

    std::int64_t lastLsn() const override;

    // The commit log's bounds (relay/README.md "The commit log"). Set before the first write.
    void setCommitLogRetention(const CommitLogRetention &retention);
    CommitLogRetention commitLogRetention();
    // What every replica has applied (the replica tier reports it after each replay round);
    // records beyond the retention tail behind it are trimmed. Never called: no replica.
    void setReplicasAppliedThrough(std::int64_t lsn) { m_commitLog.setAppliedThrough(lsn); }
    // Records below this LSN may have been trimmed.
    std::int64_t commitLogFirstLsn() const override { return m_commitLog.firstLsn(); }
    // Replaces `destination`'s content with a consistent copy of the writer database (a replica
    // seeding itself). Returns the LSN the copy is at; nullopt with `error` on failure.
    std::optional<std::int64_t> copySnapshotTo(SqliteConnection &destination, std::string &error);
    bool inMemory() const { return m_inMemory; }
    // On disk the WAL is checkpointed off the writer thread (WalCheckpointer) once it holds this
    // many frames; the background passes run so far (0 in memory).
    void setWalCheckpointPages(int pages);
    std::uint64_t walCheckpoints() const;
    // Oldest open write transaction start, if one is open: the replica fence wall stays below it.
    std::optional<std::int64_t> openWriteStartedAtMs() const override;
    std::string describe() const override;
    std::optional<std::string> textMatch(std::string_view search) const override;
    void accept(StoreVisitor &visitor) override { visitor.visit(*this); }

private:
    SqliteStore() = default;

    // Declared first, so released last: after every connection of this database closed.
    std::unique_ptr<DataDirLock> m_dataDirLock;
    std::unique_ptr<SqliteConnection> m_writer;
    std::unique_ptr<WalCheckpointer> m_checkpointer; // on disk; before m_writer goes
    std::mutex m_writerMutex;
    bool m_inMemory = true;
    std::string m_path;

    std::unique_ptr<SqliteReadConnection> m_writerView; // reads on the writer connection
    ReaderPool<SqliteConnection, SqliteReadConnection> m_readers {
        4, [this](std::string &error) {
            return SqliteConnection::open(m_path, SqliteConnection::Role::Reader, error);
        }};

    struct GroupMember;
    void runGroupsUntilStopped(); // the group thread
    // Runs the group at the head of the queue (lock held on entry and on return).
    void runNextGroup(std::unique_lock<std::mutex> &lock);
    void runGroup(const std::vector<GroupMember *> &members);
    mutable std::mutex m_groupMutex;
    std::condition_variable m_groupQueued;
    std::deque<GroupMember *> m_groupQueue; // waiting or running; popped after their group
    bool m_groupRunning = false; // a group is being run (by the group thread or a caller)
    bool m_stopping = false;
    std::thread m_groupThread;
    std::atomic<std::uint64_t> m_groups {0};
    std::atomic<std::uint64_t> m_members {0};

    // Before each writer COMMIT (writer lock held): every extension's work; false on an error.
    bool runBeforeCommit(std::int64_t nowMs, bool force);
    // After a writer ROLLBACK (writer lock held).
    void rolledBack();
    StoreExtensions m_extensions;
    CommitLogTrimmer m_commitLog; // used under the writer lock, but for its atomics

    std::atomic<std::int64_t> m_lastLsn {0};
    OpenWrites m_openWrites; // started and not finished, queued ones included
};

} // namespace buzz::relay::store
