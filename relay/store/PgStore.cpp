#include "relay/store/PgStore.h"

#include "relay/store/PgSchema.h"

#include <QLoggingCategory>

#include <exception>

#include <pthread.h>

Q_DECLARE_LOGGING_CATEGORY(lcPg)

namespace buzz::relay::store {

// One work's savepoint inside the group transaction.
class PgStore::Transaction final : public WriteTransaction
{
public:
    Transaction(PgConnection &connection, std::int64_t startedAtMs)
        : m_connection(connection)
        , m_reader(connection)
        , m_rows(connection)
        , m_startedAtMs(startedAtMs)
    { }
    ~Transaction() override { rollback(); }

    EventLookup &reader() override { return m_reader; }
    EventRows &rows() override { return m_rows; }
    std::int64_t startedAtMs() const override { return m_startedAtMs; }
    bool lockChannel(const std::string &community, const std::string &channel) override
    {
        // A transaction-scoped advisory lock, held to the group's COMMIT (or ROLLBACK): another
        // process deciding on the same channel waits here, then reads (READ COMMITTED: a new
        // snapshot per statement) what this one committed. Two 32-bit keys: a constant naming
        // the lock's purpose, and a hash of (community, channel); a collision only makes two
        // channels wait for each other, never a wrong answer.
        const std::string key = community + '\n' + channel;
        return m_connection
            .run("SELECT pg_advisory_xact_lock($1::int4, hashtext($2))",
                 PgParams().int32(kChannelLockClass).text(key))
            .ok();
    }
    bool commit(std::int64_t) override
    {
        if (!m_open)
            return false;
        if (!m_connection.execOk("RELEASE SAVEPOINT member")) {
            rollback();
            return false;
        }
        m_open = false;
        m_released = true;
        return true;
    }
    void rollback() override
    {
        if (!m_open)
            return;
        m_open = false;
        m_connection.exec("ROLLBACK TO SAVEPOINT member");
        m_connection.exec("RELEASE SAVEPOINT member");
    }

    bool m_open = true;
    bool m_released = false;

private:
    // "Bz" + 1: the advisory-lock class of channel decisions (pg_locks.classid tells them apart).
    static constexpr int kChannelLockClass = 0x427a0001;
    PgConnection &m_connection;
    PgEventReader m_reader;
    PgRowWriter m_rows;
    std::int64_t m_startedAtMs;
};

struct PgStore::Member
{
    std::string community;
    std::int64_t nowMs;
    GroupWork work;
    GroupDone done; // set for writeInGroupAsync: the member is then owned by the queue
    std::condition_variable wake;
    bool finished = false;
    GroupOutcome outcome = GroupOutcome::Failed;
};

std::int64_t PgStore::parseLsn(std::string_view text)
{
    const auto slash = text.find('/');
    if (slash == std::string_view::npos)
        return -1;
    const std::string high(text.substr(0, slash));
    const std::string low(text.substr(slash + 1));
    return static_cast<std::int64_t>((std::stoull(high, nullptr, 16) << 32)
                                     | std::stoull(low, nullptr, 16));
}

std::unique_ptr<PgStore> PgStore::open(const std::string &url, std::int64_t nowSec,
                                       std::string &error)
{
    std::unique_ptr<PgStore> store(new PgStore());
    store->m_url = url;
    store->m_writer = PgConnection::open(url, error);
    if (!store->m_writer) {
        error = "cannot connect to the PostgreSQL writer: " + error;
        return nullptr;
    }
    PgResult recovery = store->m_writer->exec("SELECT pg_is_in_recovery()");
    if (!recovery.ok()) {
        error = "PostgreSQL writer: " + recovery.message();
        return nullptr;
    }
    if (recovery.int64(0, 0)) {
        error = "--database-url names a server in recovery (a standby): the writer must be the "
                "primary; a standby goes in --read-database-url";
        return nullptr;
    }
    // Acknowledge only what is durable on the primary, whatever the server's default.
    if (!store->m_writer->execOk("SET synchronous_commit = on")
        || !PgSchema::apply(*store->m_writer, nowSec, error)) {
        if (error.empty())
            error = store->m_writer->lastError();
        error = "PostgreSQL schema: " + error;
        return nullptr;
    }
    store->m_writerPid = store->m_writer->backendPid();
    store->m_lastLsn.store(std::max<std::int64_t>(0, store->currentWalLsn()));
    store->m_thread = std::thread([raw = store.get()] {
        pthread_setname_np(pthread_self(), "buzz-writer");
        raw->runUntilStopped();
    });
    return store;
}

PgStore::~PgStore()
{
    finishQueuedWrites();
    m_idleReaders.clear();
    m_readers.clear();
}

std::unique_ptr<PgConnection> PgStore::connect(std::string &error) const
{
    return PgConnection::open(m_url, error);
}

std::string PgStore::describe() const
{
    return "postgresql " + (m_writer ? m_writer->describe() : m_url);
}

std::int64_t PgStore::currentWalLsn()
{
    ConnectionLease lease = leaseWriterConnection();
    if (!lease)
        return -1;
    PgResult lsn = lease.postgres()->exec("SELECT pg_current_wal_lsn()");
    if (!lsn.ok() || lsn.rows() == 0)
        return -1;
    return parseLsn(lsn.text(0, 0));
}

PgStore::GroupOutcome PgStore::writeInGroup(const std::string &community, std::int64_t nowMs,
                                            const GroupWork &work)
{
    rememberWriteStart(nowMs);
    Member self {community, nowMs, work, {}, {}};
    std::unique_lock lock(m_queueMutex);
    if (m_stopping) {
        // No writer thread any more: the caller runs its own group.
        lock.unlock();
        runGroup({&self});
        return self.outcome;
    }
    m_queue.push_back(&self);
    m_queued.notify_one();
    self.wake.wait(lock, [&] { return self.finished; });
    return self.outcome;
}

void PgStore::writeInGroupAsync(std::string community, std::int64_t nowMs, GroupWork work,
                                GroupDone done)
{
    rememberWriteStart(nowMs);
    auto *member = new Member {std::move(community), nowMs, std::move(work), std::move(done), {}};
    std::unique_lock lock(m_queueMutex);
    if (m_stopping) {
        lock.unlock();
        runGroup({member});
        member->done(member->outcome);
        delete member;
        return;
    }
    m_queue.push_back(member);
    m_queued.notify_one();
}

void PgStore::runUntilStopped()
{
    std::unique_lock lock(m_queueMutex);
    for (;;) {
        m_queued.wait(lock, [&] { return !m_queue.empty() || m_stopping; });
        if (m_queue.empty())
            return; // stopping, and nothing is left to write
        const std::size_t size = std::min(kMaxGroup, m_queue.size());
        std::vector<Member *> members(m_queue.begin(), m_queue.begin() + std::ptrdiff_t(size));
        m_queue.erase(m_queue.begin(), m_queue.begin() + std::ptrdiff_t(size));
        lock.unlock();
        runGroup(members);
        finish(members);
        lock.lock();
    }
}

void PgStore::finish(const std::vector<Member *> &members)
{
    std::vector<Member *> detached;
    {
        std::lock_guard lock(m_queueMutex);
        for (Member *member : members) {
            if (member->done) {
                detached.push_back(member);
            } else {
                member->finished = true;
                member->wake.notify_one(); // under the lock: the waiter cannot leave before
            }
        }
    }
    for (Member *member : detached) {
        member->done(member->outcome);
        delete member;
    }
}

bool PgStore::ensureWriter()
{
    if (m_writer->healthy())
        return true;
    qCWarning(lcPg) << "writer connection lost; reconnecting";
    if (!m_writer->reconnect() || !m_writer->execOk("SET synchronous_commit = on"))
        return false;
    m_writerPid = m_writer->backendPid();
    return true;
}

void PgStore::runGroup(const std::vector<Member *> &members)
{
    const auto forget = [&] {
        for (Member *member : members)
            forgetWriteStart(member->nowMs);
    };
    std::lock_guard writer(m_writerMutex);
    m_groups.fetch_add(1, std::memory_order_relaxed);
    m_members.fetch_add(members.size(), std::memory_order_relaxed);
    if (!ensureWriter() || !m_writer->execOk("BEGIN")) {
        forget();
        return; // every outcome stays Failed
    }
    for (Member *member : members) {
        if (!m_writer->execOk("SAVEPOINT member"))
            break;
        Transaction transaction(*m_writer, member->nowMs);
        try {
            member->work(transaction);
        } catch (const std::exception &error) {
            // One bad event must not take the group down: its savepoint rolls back.
            qCWarning(lcPg) << "ingest work threw:" << error.what();
        }
        transaction.rollback(); // no-op when the work released its savepoint
        if (!m_writer->healthy() || !m_writer->inTransaction()) {
            qCWarning(lcPg) << "group transaction lost:" << m_writer->lastError().c_str();
            for (Member *each : members)
                each->outcome = GroupOutcome::Failed;
            if (m_writer->inTransaction())
                m_writer->exec("ROLLBACK");
            forget();
            return;
        }
        member->outcome =
            transaction.m_released ? GroupOutcome::Committed : GroupOutcome::Discarded;
    }
    // COMMIT and the position it reached, in one round trip; only COMMIT's answer decides.
    std::vector<PgResult> results = m_writer->execAll("COMMIT; SELECT pg_current_wal_lsn()");
    if (results.empty() || !results.front().ok()) {
        qCWarning(lcPg)
            << "group COMMIT failed:"
            << (results.empty() ? m_writer->lastError() : results.front().message()).c_str();
        if (m_writer->inTransaction())
            m_writer->exec("ROLLBACK");
        for (Member *member : members)
            member->outcome = GroupOutcome::Failed;
        forget();
        return;
    }
    std::int64_t lsn = -1;
    if (results.size() > 1 && results[1].ok() && results[1].rows() > 0)
        lsn = parseLsn(results[1].text(0, 0));
    // The position must not stay behind a commit that happened: a subscription's history asks
    // replicas for it (replication::ScopePositions). Any read after the COMMIT will do.
    if (lsn < 0)
        lsn = currentWalLsn();
    if (lsn > m_lastLsn.load())
        m_lastLsn.store(lsn);
    forget();
}

void PgStore::finishQueuedWrites()
{
    {
        std::lock_guard lock(m_queueMutex);
        if (m_stopping)
            return;
        m_stopping = true;
    }
    m_queued.notify_one();
    if (m_thread.joinable())
        m_thread.join(); // after running what is still queued
}

std::size_t PgStore::queuedWrites() const
{
    std::lock_guard lock(m_queueMutex);
    return m_queue.size();
}

ConnectionLease PgStore::leaseWriterConnection()
{
    std::unique_lock lock(m_poolMutex);
    if (m_idleReaders.empty() && static_cast<int>(m_readers.size()) < kReaderPoolSize) {
        std::string error;
        auto reader = PgConnection::open(m_url, error);
        if (reader) {
            m_idleReaders.push_back(reader.get());
            m_readers.push_back(std::move(reader));
        } else {
            qCWarning(lcPg) << "cannot open a writer read connection:" << error.c_str();
        }
    }
    if (m_readers.empty())
        return {};
    m_poolAvailable.wait(lock, [this] { return !m_idleReaders.empty(); });
    PgConnection *reader = m_idleReaders.back();
    m_idleReaders.pop_back();
    lock.unlock();
    if (!reader->healthy() && !reader->reconnect())
        qCWarning(lcPg) << "writer read connection lost:" << reader->lastError().c_str();
    return ConnectionLease(reader, [this, reader] {
        if (reader->inTransaction())
            reader->exec("ROLLBACK");
        {
            std::lock_guard guard(m_poolMutex);
            m_idleReaders.push_back(reader);
        }
        m_poolAvailable.notify_one();
    });
}

void PgStore::rememberWriteStart(std::int64_t startedAtMs)
{
    std::lock_guard starts(m_writeStartsMutex);
    m_writeStarts.insert(startedAtMs);
}

void PgStore::forgetWriteStart(std::int64_t startedAtMs)
{
    std::lock_guard starts(m_writeStartsMutex);
    if (const auto it = m_writeStarts.find(startedAtMs); it != m_writeStarts.end())
        m_writeStarts.erase(it);
}

std::optional<std::int64_t> PgStore::openWriteStartedAtMs() const
{
    std::lock_guard starts(m_writeStartsMutex);
    if (m_writeStarts.empty())
        return std::nullopt;
    return *m_writeStarts.begin();
}

} // namespace buzz::relay::store
