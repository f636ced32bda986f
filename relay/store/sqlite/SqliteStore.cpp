#include "relay/store/sqlite/SqliteStore.h"

#include "relay/store/SearchText.h"
#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteSchema.h"
#include "relay/store/sqlite/StoreIntegrity.h"
#include "relay/store/sqlite/StoreSnapshot.h"

#include <QLoggingCategory>

#include <algorithm>
#include <exception>
#include <filesystem>

#include <pthread.h>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace buzz::relay::store {

SqliteStore::WriteTransaction::WriteTransaction(SqliteStore &database,
                                                std::unique_lock<std::mutex> lock,
                                                std::string community, std::int64_t startedAtMs,
                                                Scope scope)
    : m_database(database)
    , m_lock(std::move(lock))
    , m_connection(database.m_writer.get())
    , m_change(std::move(community))
    , m_reader(*m_connection)
    , m_rows(*m_connection, &m_change)
    , m_startedAtMs(startedAtMs)
    , m_scope(scope)
{ }

SqliteStore::WriteTransaction::~WriteTransaction()
{
    rollback();
}

bool SqliteStore::WriteTransaction::insertRecord(std::int64_t committedAtMs, std::string_view text,
                                                 std::int64_t &lsn)
{
    auto append =
        m_connection->prepare("INSERT INTO commit_log (committed_at_ms, change) VALUES (?1, ?2)");
    append.bind(1, committedAtMs);
    append.bindStatic(2, text);
    if (!append.run()) {
        qCWarning(lcStore) << "commit log append failed:" << m_connection->lastError().c_str();
        return false;
    }
    lsn = sqlite3_last_insert_rowid(m_connection->handle());
    return true;
}

bool SqliteStore::WriteTransaction::appendCommitLog(std::int64_t committedAtMs, std::int64_t &lsn)
{
    return insertRecord(committedAtMs, m_change.text(committedAtMs), lsn);
}

bool SqliteStore::WriteTransaction::appendRecord(std::int64_t committedAtMs,
                                                 const std::string &text)
{
    return m_open && insertRecord(committedAtMs, text, m_lsn);
}

bool SqliteStore::WriteTransaction::commit(std::int64_t committedAtMs)
{
    if (!m_open)
        return false;
    std::int64_t lsn = m_lsn;
    if (hasChanges() && !appendCommitLog(committedAtMs, lsn)) {
        rollback();
        return false;
    }
    const bool released = m_scope == Scope::Savepoint
        ? m_connection->execCached("RELEASE member")
        : m_database.m_commitLog.trimBeforeCommit(*m_connection,
                                                  lsn ? lsn : m_database.m_lastLsn.load())
            && m_database.runBeforeCommit(committedAtMs, false) && m_connection->exec("COMMIT");
    if (!released) {
        rollback();
        return false;
    }
    m_open = false;
    if (m_scope == Scope::Savepoint) {
        m_released = true;
        m_lsn = lsn; // published by the group after its COMMIT
        return true;
    }
    if (lsn)
        m_database.m_lastLsn.store(lsn);
    m_database.m_openWrites.forget(m_startedAtMs);
    if (m_lock.owns_lock())
        m_lock.unlock();
    return true;
}

void SqliteStore::WriteTransaction::rollback()
{
    if (m_open) {
        if (m_scope == Scope::Savepoint) {
            m_connection->execCached("ROLLBACK TO member");
            m_connection->execCached("RELEASE member");
        } else {
            m_connection->exec("ROLLBACK");
            m_database.rolledBack();
            m_database.m_openWrites.forget(m_startedAtMs);
        }
        m_open = false;
    }
    if (m_lock.owns_lock())
        m_lock.unlock();
}

struct SqliteStore::GroupMember
{
    std::string community;
    std::int64_t nowMs;
    GroupWork work;
    GroupDone done; // set for writeInGroupAsync: the member is then owned by the queue
    std::condition_variable wake; // writeInGroup waits on it
    bool finished = false;
    GroupOutcome outcome = GroupOutcome::Failed;
};

SqliteStore::GroupOutcome SqliteStore::writeInGroup(const std::string &community,
                                                    std::int64_t nowMs, const GroupWork &work)
{
    // Registered before queueing, like beginWrite: the fence wall must stay below a write that is
    // still waiting for the writer.
    m_openWrites.remember(nowMs);
    GroupMember self {community, nowMs, work, {}, {}};
    std::unique_lock lock(m_groupMutex);
    m_groupQueue.push_back(&self);
    if (!m_groupRunning) {
        // The writer is idle: run the group here rather than wake the group thread and wait for
        // it (a lone caller would pay two thread switches per write).
        do
            runNextGroup(lock);
        while (m_stopping && !m_groupQueue.empty()); // no group thread left to take the rest
        if (!m_groupQueue.empty())
            m_groupQueued.notify_one(); // queued while we ran: the group thread takes them
    }
    self.wake.wait(lock, [&] { return self.finished; });
    return self.outcome;
}

void SqliteStore::writeInGroupAsync(std::string community, std::int64_t nowMs, GroupWork work,
                                    GroupDone done)
{
    m_openWrites.remember(nowMs);
    auto *member =
        new GroupMember {std::move(community), nowMs, std::move(work), std::move(done), {}};
    std::unique_lock lock(m_groupMutex);
    m_groupQueue.push_back(member);
    if (m_stopping && !m_groupRunning) {
        while (!m_groupQueue.empty())
            runNextGroup(lock); // no group thread any more: the caller runs it
    } else if (!m_groupRunning)
        m_groupQueued.notify_one();
}

void SqliteStore::runGroupsUntilStopped()
{
    // Under load one thread runs group after group: it goes from one COMMIT straight to the next
    // group (no hand-over to another sleeping thread), and callers that do not wait are never
    // woken.
    std::unique_lock lock(m_groupMutex);
    for (;;) {
        // A caller may be running a group itself (writeInGroup on an idle writer): wait for it.
        m_groupQueued.wait(
            lock, [&] { return !m_groupRunning && (!m_groupQueue.empty() || m_stopping); });
        if (m_groupQueue.empty())
            return; // stopping, and nothing is left to write
        runNextGroup(lock);
    }
}

void SqliteStore::runNextGroup(std::unique_lock<std::mutex> &lock)
{
    constexpr std::size_t kMaxGroup = 128; // so one group cannot hold the writer for long
    m_groupRunning = true;
    const std::size_t size = std::min(kMaxGroup, m_groupQueue.size());
    std::vector<GroupMember *> members(m_groupQueue.begin(),
                                       m_groupQueue.begin() + std::ptrdiff_t(size));
    lock.unlock();
    runGroup(members);
    lock.lock();
    std::vector<GroupMember *> detached;
    for (GroupMember *member : members) {
        m_groupQueue.pop_front();
        if (member->done) {
            detached.push_back(member);
        } else {
            member->finished = true;
            member->wake.notify_one(); // under the lock: the waiter cannot leave before
        }
    }
    lock.unlock();
    for (GroupMember *member : detached) {
        member->done(member->outcome);
        delete member;
    }
    lock.lock();
    m_groupRunning = false;
    if (m_stopping)
        m_groupQueued.notify_one();
}

bool SqliteStore::runBeforeCommit(std::int64_t nowMs, bool force)
{
    for (const auto &extension : m_extensions) {
        if (!extension->beforeWriterCommit(*m_writer, nowMs, force))
            return false;
    }
    return true;
}

void SqliteStore::rolledBack()
{
    for (const auto &extension : m_extensions)
        extension->writerRolledBack();
}

bool SqliteStore::flushDeferredWork()
{
    const auto deferred = [this] {
        for (const auto &extension : m_extensions) {
            if (extension->hasDeferredWork())
                return true;
        }
        return false;
    };
    if (!deferred())
        return true;
    // No commit-log record and no row change: nothing a replica or a fence needs to know about.
    std::lock_guard writer(m_writerMutex);
    if (!deferred())
        return true;
    if (!m_writer->exec("BEGIN IMMEDIATE"))
        return false;
    if (!runBeforeCommit(0, true) || !m_writer->exec("COMMIT")) {
        m_writer->exec("ROLLBACK");
        rolledBack();
        return false;
    }
    return true;
}

std::size_t SqliteStore::queuedWrites() const
{
    std::lock_guard lock(m_groupMutex);
    return m_groupQueue.size();
}

void SqliteStore::runGroup(const std::vector<GroupMember *> &members)
{
    const auto finish = [&] {
        for (GroupMember *member : members)
            m_openWrites.forget(member->nowMs);
    };
    std::unique_lock writer(m_writerMutex);
    if (m_checkpointer)
        m_checkpointer->applyJournalLimit(); // between transactions, on the writer's thread
    m_groups.fetch_add(1, std::memory_order_relaxed);
    m_members.fetch_add(members.size(), std::memory_order_relaxed);
    if (!m_writer->exec("BEGIN IMMEDIATE")) {
        finish();
        return; // every outcome stays Failed
    }
    std::int64_t lastLsn = 0;
    for (GroupMember *member : members) {
        WriteTransaction transaction(*this, {}, member->community, member->nowMs,
                                     WriteTransaction::Scope::Savepoint);
        if (!m_writer->execCached("SAVEPOINT member"))
            break;
        transaction.m_open = true;
        try {
            member->work(transaction);
        } catch (const std::exception &error) {
            // One bad event must not take the group down: its savepoint rolls back, the caller
            // answers its own default (an internal error), the others commit as usual.
            qCWarning(lcStore) << "ingest work threw:" << error.what();
        }
        transaction.rollback(); // no-op when the work released its savepoint
        if (sqlite3_get_autocommit(m_writer->handle())) {
            // An I/O or full-disk error rolled the whole transaction back behind our savepoints:
            // nothing of this group is stored, so nobody may be told otherwise.
            qCWarning(lcStore) << "group transaction aborted by SQLite:"
                               << m_writer->lastError().c_str();
            for (GroupMember *each : members)
                each->outcome = GroupOutcome::Failed;
            finish();
            return;
        }
        if (transaction.m_lsn)
            lastLsn = transaction.m_lsn;
        member->outcome =
            transaction.m_released ? GroupOutcome::Committed : GroupOutcome::Discarded;
    }
    if (!m_commitLog.trimBeforeCommit(*m_writer, lastLsn ? lastLsn : m_lastLsn.load())
        || !runBeforeCommit(members.back()->nowMs, false) || !m_writer->exec("COMMIT")) {
        m_writer->exec("ROLLBACK");
        rolledBack();
        for (GroupMember *member : members)
            member->outcome = GroupOutcome::Failed;
        finish();
        return;
    }
    if (lastLsn)
        m_lastLsn.store(lastLsn);
    finish();
}

void SqliteStore::finishQueuedWrites()
{
    if (!m_groupThread.joinable())
        return;
    {
        std::lock_guard lock(m_groupMutex);
        m_stopping = true;
    }
    m_groupQueued.notify_one();
    m_groupThread.join(); // after running what is still queued
}

SqliteStore::~SqliteStore()
{
    finishQueuedWrites();
    m_checkpointer.reset();
    m_readers.clear();
    if (m_writer && !m_inMemory)
        m_writer->exec("PRAGMA wal_checkpoint(PASSIVE)");
}

std::unique_ptr<SqliteStore> SqliteStore::open(const std::optional<std::string> &dataDir,
                                               std::string &error, StoreExtensions extensions)
{
    std::unique_ptr<SqliteStore> database(new SqliteStore());
    database->m_extensions = std::move(extensions);
    std::string uri = ":memory:";
    if (dataDir) {
        std::error_code ec;
        std::filesystem::create_directories(*dataDir, ec);
        if (ec) {
            error = "cannot create data directory: " + ec.message();
            return nullptr;
        }
        // One relay per directory, and before anything reads its files: the checks below and
        // SQLite's recovery must not see another relay's writes in flight.
        database->m_dataDirLock = DataDirLock::acquire(*dataDir, error);
        if (!database->m_dataDirLock)
            return nullptr;
        uri = (std::filesystem::path(*dataDir) / "relay.sqlite3").string();
        if (auto damaged = StoreIntegrity::checkBeforeOpen(uri)) {
            error = *damaged;
            return nullptr;
        }
        database->m_inMemory = false;
        database->m_path = uri;
    }
    database->m_writer = SqliteConnection::open(uri, SqliteConnection::Role::StoreWriter, error);
    if (!database->m_writer)
        return nullptr;
    database->m_writerView = std::make_unique<SqliteReadConnection>(*database->m_writer);
    if (!SqliteSchema::apply(*database->m_writer, database->m_extensions, &error))
        return nullptr;
    for (const auto &extension : database->m_extensions) {
        if (!extension->attachWriter(*database->m_writer)) {
            error = "schema: " + database->m_writer->lastError();
            return nullptr;
        }
    }
    auto lastLsn = database->m_writer->prepare("SELECT COALESCE(MAX(lsn), 0) FROM commit_log");
    if (lastLsn.step())
        database->m_lastLsn.store(lastLsn.int64(0));
    if (!database->m_commitLog.load(*database->m_writer)) {
        error = "commit log: " + database->m_writer->lastError();
        return nullptr;
    }
    if (!database->m_inMemory) {
        std::string checkpointError;
        database->m_checkpointer =
            WalCheckpointer::start(*database->m_writer, uri, checkpointError);
        if (!database->m_checkpointer) // the writer's automatic checkpoint stays in place
            qCWarning(lcStore) << "no checkpoint connection:" << checkpointError.c_str();
    }
    database->m_groupThread = std::thread([db = database.get()] {
        pthread_setname_np(pthread_self(), "buzz-writer");
        db->runGroupsUntilStopped();
    });
    return database;
}

std::unique_ptr<SqliteStore::WriteTransaction> SqliteStore::beginWrite(const std::string &community,
                                                                       std::int64_t nowMs)
{
    m_openWrites.remember(nowMs);
    std::unique_lock lock(m_writerMutex);
    if (m_checkpointer)
        m_checkpointer->applyJournalLimit();
    std::unique_ptr<WriteTransaction> transaction(new WriteTransaction(
        *this, std::move(lock), community, nowMs, WriteTransaction::Scope::Transaction));
    if (!m_writer->exec("BEGIN IMMEDIATE")) {
        m_openWrites.forget(nowMs);
        return nullptr;
    }
    transaction->m_open = true;
    return transaction;
}

ConnectionLease SqliteStore::leaseWriterConnection()
{
    if (m_inMemory) {
        m_writerMutex.lock();
        return ConnectionLease(m_writerView.get(), [this] { m_writerMutex.unlock(); });
    }
    std::string error;
    SqliteReadConnection *reader = m_readers.acquire(error);
    if (!reader) {
        qCWarning(lcStore) << "cannot open reader:" << error.c_str();
        // No reader could be opened: fall back to the writer connection itself.
        m_writerMutex.lock();
        return ConnectionLease(m_writerView.get(), [this] { m_writerMutex.unlock(); });
    }
    return ConnectionLease(reader, [this, reader] { m_readers.release(reader); });
}

std::int64_t SqliteStore::lastLsn() const
{
    return m_lastLsn.load();
}

std::optional<std::string> SqliteStore::textMatch(std::string_view search) const
{
    return SearchText::toMatchExpression(search);
}

std::string SqliteStore::describe() const
{
    return m_inMemory ? std::string("sqlite (memory)") : "sqlite " + m_path;
}

void SqliteStore::setCommitLogRetention(const CommitLogRetention &retention)
{
    std::lock_guard writer(m_writerMutex);
    m_commitLog.setRetention(retention);
}

CommitLogRetention SqliteStore::commitLogRetention()
{
    std::lock_guard writer(m_writerMutex);
    return m_commitLog.retention();
}

std::optional<std::int64_t> SqliteStore::copySnapshotTo(SqliteConnection &destination,
                                                        std::string &error)
{
    ConnectionLease lease = leaseWriterConnection();
    if (!lease) {
        error = "snapshot: no connection on the writer database";
        return std::nullopt;
    }
    return StoreSnapshot::copy(SqliteReadConnection::of(lease), destination, error);
}

void SqliteStore::setWalCheckpointPages(int pages)
{
    if (m_checkpointer)
        m_checkpointer->setPages(pages);
}

std::uint64_t SqliteStore::walCheckpoints() const
{
    return m_checkpointer ? m_checkpointer->checkpoints() : 0;
}

std::optional<std::int64_t> SqliteStore::openWriteStartedAtMs() const
{
    return m_openWrites.oldest();
}

} // namespace buzz::relay::store
