#include "relay/store/postgres/PgStore.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgEventBatch.h"
#include "relay/store/postgres/PgFanoutListener.h"
#include "relay/store/postgres/PgPresenceTable.h"
#include "relay/store/postgres/PgReplayCache.h"
#include "relay/store/postgres/PgSchema.h"
#include "relay/store/postgres/PgSearchIndex.h"
#include "relay/store/postgres/PgSharedConnection.h"

#include <QLoggingCategory>

#include <cstdio>
#include <exception>
#include <random>

#include <pthread.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcPg)

namespace buzz::relay::store {

// One event of a committed work, as fanout_log records it.
struct PgStore::Announcement
{
    std::string community;
    std::int64_t createdAt = 0;
    std::string idBytes;
    std::string channel; // empty: none
    std::string json; // empty: the event has its row in events
};

namespace {
constexpr std::uint64_t kFanoutTrimEveryGroups = 1024;
} // namespace

// One work's savepoint inside the group transaction.
class PgStore::Transaction final : public WriteTransaction
{
public:
    Transaction(PgConnection &connection, std::int64_t startedAtMs,
                std::vector<Announcement> &groupAnnounced, PgEventBatch *batch, int member)
        : m_connection(connection)
        , m_reader(connection)
        , m_rows(connection, batch, member)
        , m_batch(batch)
        , m_member(member)
        , m_startedAtMs(startedAtMs)
        , m_groupAnnounced(groupAnnounced)
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
    void announce(const StoredEvent &stored, bool hasRow) override
    {
        std::string id(32, '\0');
        if (!HexKey::decodeInto(stored.event.id, reinterpret_cast<std::uint8_t *>(id.data()), 32))
            return; // a verified event always has one
        m_announced.push_back(Announcement {stored.community, stored.event.createdAt, std::move(id),
                                            stored.channel.value_or(""),
                                            hasRow ? std::string() : stored.json});
    }
    // The savepoint's SAVEPOINT, RELEASE and ROLLBACK TO are deferred (PgConnection::defer):
    // they travel with the next statement on the writer, and a savepoint in which nothing ran is
    // never sent at all. A deferred statement that fails fails the whole group (runGroup).
    bool commit(std::int64_t) override
    {
        if (!m_open)
            return false;
        m_open = false;
        m_released = true;
        if (!m_connection.withdraw(kSavepoint))
            m_connection.defer("RELEASE SAVEPOINT member");
        for (Announcement &announcement : m_announced)
            m_groupAnnounced.push_back(std::move(announcement));
        m_announced.clear();
        return true;
    }
    void rollback() override
    {
        m_announced.clear();
        if (!m_open)
            return;
        m_open = false;
        if (m_batch)
            m_batch->drop(m_member); // its rows not sent yet; those sent go with the savepoint
        if (m_connection.withdraw(kSavepoint))
            return; // nothing ran in it
        m_connection.defer("ROLLBACK TO SAVEPOINT member");
        m_connection.defer("RELEASE SAVEPOINT member");
    }

    static constexpr std::string_view kSavepoint = "SAVEPOINT member";
    bool m_open = true;
    bool m_released = false;

private:
    // "Bz" + 1: the advisory-lock class of channel decisions (pg_locks.classid tells them apart).
    static constexpr int kChannelLockClass = 0x427a0001;
    PgConnection &m_connection;
    PgEventReader m_reader;
    PgRowWriter m_rows;
    PgEventBatch *m_batch;
    int m_member;
    std::int64_t m_startedAtMs;
    std::vector<Announcement> m_announced; // this work's, until its savepoint is released
    std::vector<Announcement> &m_groupAnnounced; // the group's, logged before its COMMIT
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

namespace {
// Acknowledge only what is durable, whatever the server's default: at least `on` (the primary's
// disk, and a synchronous standby's when one is named); a stronger server setting (remote_apply)
// is kept (relay/README.md "Failover").
bool commitDurably(PgConnection &connection)
{
    PgResult level = connection.exec("SHOW synchronous_commit");
    if (!level.ok() || level.rows() == 0)
        return false;
    const std::string_view value = level.text(0, 0);
    return value == "on" || value == "remote_apply"
        || connection.execOk("SET synchronous_commit = on");
}

} // namespace

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
    if (!commitDurably(*store->m_writer) || !PgSchema::apply(*store->m_writer, nowSec, error)) {
        if (error.empty())
            error = store->m_writer->lastError();
        error = "PostgreSQL schema: " + error;
        return nullptr;
    }
    store->m_writerPid = store->m_writer->backendPid();
    // Reads may go to the standby while there is no primary only when it applied every commit
    // the primary acknowledged (relay/README.md "Failover").
    PgResult synchronous =
        store->m_writer->exec("SELECT current_setting('synchronous_commit') = 'remote_apply' "
                              "AND current_setting('synchronous_standby_names') <> ''");
    store->m_standbyReadsInGap =
        synchronous.ok() && synchronous.rows() > 0 && synchronous.text(0, 0) == "t";
    // One channel per database schema (tests run one relay per schema on one database), and a
    // token that only this process's rows carry.
    PgResult channel =
        store->m_writer->exec("SELECT 'buzz_fanout_' || substr(md5(current_schema()), 1, 16)");
    if (!channel.ok() || channel.rows() == 0) {
        error = "PostgreSQL writer: " + channel.message();
        return nullptr;
    }
    store->m_fanoutChannel = std::string(channel.text(0, 0));
    std::random_device random;
    char origin[40];
    std::snprintf(origin, sizeof origin, "%d-%08x%08x", int(::getpid()), unsigned(random()),
                  unsigned(random()));
    store->m_fanoutOrigin = origin;
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
    m_readers.clear();
}

std::unique_ptr<PgConnection> PgStore::connect(std::string &error) const
{
    return PgConnection::open(m_url, error);
}

std::optional<std::string> PgStore::textMatch(std::string_view search) const
{
    return PgSearchIndex::toTsQuery(search);
}

Store::Shared PgStore::openShared(std::string &error)
{
    Shared shared;
    if (auto connection = PgSharedConnection::open(m_url, error)) {
        shared.presence =
            std::make_shared<PgPresenceTable>(connection, m_fanoutChannel, m_fanoutOrigin);
        shared.replays = std::make_shared<PgReplayCache>(std::move(connection));
    }
    return shared;
}

std::unique_ptr<CrossProcessFeed> PgStore::followOtherProcesses(CrossProcessFeed::Deliver deliver)
{
    return std::make_unique<PgFanoutListener>(m_url, m_fanoutChannel, m_fanoutOrigin,
                                              std::move(deliver));
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
    PgResult lsn = PgReadConnection::of(lease).exec("SELECT pg_current_wal_lsn()");
    if (!lsn.ok() || lsn.rows() == 0)
        return -1;
    return parseLsn(lsn.text(0, 0));
}

PgStore::GroupOutcome PgStore::writeInGroup(const std::string &community, std::int64_t nowMs,
                                            const GroupWork &work)
{
    m_openWrites.remember(nowMs);
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
    m_openWrites.remember(nowMs);
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
    if (m_writer->stillConnected())
        return true;
    qCWarning(lcPg) << "writer connection lost; reconnecting";
    if (!m_writer->reconnect() || !commitDurably(*m_writer)) {
        qCWarning(lcPg) << "no writable PostgreSQL server:" << m_writer->lastError().c_str();
        return false;
    }
    m_writerPid = m_writer->backendPid();
    qCWarning(lcPg) << "writer reconnected to" << m_writer->describe().c_str();
    return true;
}

void PgStore::runGroup(const std::vector<Member *> &members)
{
    std::lock_guard writer(m_writerMutex);
    m_groups.fetch_add(1, std::memory_order_relaxed);
    m_members.fetch_add(members.size(), std::memory_order_relaxed);
    // A group of several events first holds their rows back and inserts them in one statement
    // (PgEventBatch); when that fails (a duplicate, or anything else) it runs again one event at
    // a time, which gives every work its exact answer. Works are run again from the start: they
    // change nothing outside the transaction (store/Store.h).
    if (members.size() < 2 || !attemptGroup(members, true)) {
        if (members.size() >= 2)
            m_retriedGroups.fetch_add(1, std::memory_order_relaxed);
        attemptGroup(members, false);
    }
    for (Member *member : members)
        m_openWrites.forget(member->nowMs);
}

bool PgStore::attemptGroup(const std::vector<Member *> &members, bool batched)
{
    // False: this batched attempt failed and was rolled back (run the group again unbatched).
    const auto fail = [&](const char *what, const std::string &why) {
        if (!batched)
            qCWarning(lcPg) << what << why.c_str();
        m_writer->setBeforeSend({});
        m_writer->discardDeferred();
        if (m_writer->inTransaction())
            m_writer->exec("ROLLBACK");
        for (Member *member : members)
            member->outcome = GroupOutcome::Failed;
        return !batched;
    };
    if (!ensureWriter())
        return true; // every outcome stays Failed
    // One round trip per event at most (its statements, with the deferred BEGIN / SAVEPOINT /
    // RELEASE around them) and one for the group's end (held-back rows, fan-out record, COMMIT
    // and position).
    m_writer->discardDeferred();
    m_writer->clearDeferredFailure();
    m_writer->defer("BEGIN");
    PgEventBatch batch;
    int current = -1;
    if (batched)
        m_writer->setBeforeSend([&](std::string_view sql) {
            batch.sendBefore(sql, *m_writer, current, Transaction::kSavepoint,
                             m_earlierRowsInSavepoint);
        });
    std::vector<Announcement> announced;
    for (Member *member : members) {
        ++current;
        m_earlierRowsInSavepoint = false;
        m_writer->defer(std::string(Transaction::kSavepoint));
        Transaction transaction(*m_writer, member->nowMs, announced, batched ? &batch : nullptr,
                                current);
        try {
            member->work(transaction);
        } catch (const std::exception &error) {
            // One bad event must not take the group down: its savepoint rolls back.
            qCWarning(lcPg) << "ingest work threw:" << error.what();
        }
        transaction.rollback(); // no-op when the work released its savepoint
        // Before any round trip the transaction is not open yet (BEGIN is still deferred).
        if (!m_writer->healthy() || m_writer->deferredFailed()
            || (!m_writer->hasDeferred() && !m_writer->inTransaction())) {
            return fail("group transaction lost:",
                        m_writer->deferredFailed() ? m_writer->deferredError()
                                                   : m_writer->lastError());
        }
        if (!transaction.m_released && m_earlierRowsInSavepoint)
            return fail("rows of earlier works rolled back:", "(retried)");
        member->outcome =
            transaction.m_released ? GroupOutcome::Committed : GroupOutcome::Discarded;
    }
    current = -1;
    if (announced.empty() && batch.empty() && m_writer->withdraw("BEGIN")) {
        m_writer->setBeforeSend({});
        return true; // no statement ran (every work refused before writing): nothing to commit
    }
    // The held-back rows, the fan-out record (relay/README.md "Live fan-out across processes"),
    // COMMIT and the position it reached, in one round trip; a statement after a failed one does
    // not run, so a failure leaves the transaction uncommitted.
    std::vector<std::string> finish {"COMMIT", "SELECT pg_current_wal_lsn()"};
    std::vector<PgResult> results;
    if (announced.empty()) {
        results = m_writer->pipeline(finish);
    } else {
        if (++m_fanoutGroups % kFanoutTrimEveryGroups == 0)
            finish.insert(finish.begin(), fanoutTrimSql());
        results = m_writer->runThen(kLogFanoutSql, fanoutParams(announced), finish);
        for (std::size_t i = 0; i + 2 < results.size(); ++i) {
            if (!results[i].ok() || (i == 0 && results[i].rows() == 0))
                return fail("group fan-out record failed:", results[i].message());
        }
    }
    m_writer->setBeforeSend({});
    const PgResult &commit = results[results.size() - 2];
    if (m_writer->deferredFailed() || !commit.ok() || commit.commandStatus() != "COMMIT") {
        // A COMMIT of an aborted transaction answers ROLLBACK, and nothing was kept.
        return fail("group COMMIT failed:",
                    m_writer->deferredFailed() ? m_writer->deferredError()
                        : commit.ok()          ? std::string("the transaction was rolled back")
                                               : commit.message());
    }
    std::int64_t lsn = -1;
    if (const PgResult &position = results.back(); position.ok() && position.rows() > 0)
        lsn = position.int64(0, 0); // a pg_lsn in binary format: the number itself
    // The position must not stay behind a commit that happened: a subscription's history asks
    // replicas for it (replication::ScopePositions). Any read after the COMMIT will do.
    if (lsn < 0)
        lsn = currentWalLsn();
    if (lsn > m_lastLsn.load())
        m_lastLsn.store(lsn);
    return true;
}

// The lock is held to the COMMIT: the next writer of the database numbers its rows only after
// this group's are visible, so numbers follow commit order and a listener that read up to N has
// missed nothing below N (relay/README.md "Live fan-out across processes"). Taken first, in the
// same statement: a row reaches the INSERT only after `locked` gave its row. The NOTIFY is
// delivered at COMMIT, to every listener, in commit order; it carries only this process's token
// and the group's last number (a payload is limited to 8000 bytes).
const std::string PgStore::kLogFanoutSql =
    "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($8::int4, "
    "hashtext(current_schema()))), logged AS (INSERT INTO fanout_log (origin, community, "
    "created_at, event_id, channel, event_json) SELECT $1, u.c, u.t, u.i, NULLIF(u.h, ''), "
    "NULLIF(u.j, '') FROM locked, unnest($2::text[], $3::timestamptz[], $4::bytea[], "
    "$5::text[], $6::text[]) WITH ORDINALITY AS u(c, t, i, h, j, n) ORDER BY u.n "
    "RETURNING seq) SELECT max(seq), pg_notify($7, $1 || ' ' || max(seq)) FROM logged";

std::string PgStore::fanoutTrimSql()
{
    return "DELETE FROM fanout_log WHERE seq <= (SELECT max(seq) FROM fanout_log) - "
        + std::to_string(kFanoutLogRetention);
}

PgParams PgStore::fanoutParams(const std::vector<Announcement> &announced) const
{
    std::vector<std::string> communities, ids, channels, jsons;
    std::vector<std::int64_t> createdAt;
    communities.reserve(announced.size());
    ids.reserve(announced.size());
    channels.reserve(announced.size());
    jsons.reserve(announced.size());
    createdAt.reserve(announced.size());
    for (const Announcement &announcement : announced) {
        communities.push_back(announcement.community);
        createdAt.push_back(announcement.createdAt);
        ids.push_back(announcement.idBytes);
        channels.push_back(announcement.channel);
        jsons.push_back(announcement.json);
    }
    PgParams params;
    params.text(m_fanoutOrigin)
        .textArray(communities)
        .timestampArray(createdAt)
        .bytesArray(ids)
        .textArray(channels)
        .textArray(jsons)
        .text(m_fanoutChannel)
        .int32(PgFanoutListener::kLockClass);
    return params;
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
    std::string error;
    PgReadConnection *reader = m_readers.acquire(error);
    if (!reader) {
        qCWarning(lcPg) << "cannot open a writer read connection:" << error.c_str();
        return {};
    }
    PgConnection &connection = reader->connection();
    if (!connection.stillConnected() && !connection.reconnect()) {
        qCWarning(lcPg) << "writer read connection lost:" << connection.lastError().c_str();
        if (auto standby = m_standbyReadsInGap ? connectToAnyServer() : nullptr) {
            m_readers.release(reader);
            // One read, then closed: the next one tries the primary again.
            auto gap = std::make_shared<
                std::pair<std::unique_ptr<PgConnection>, std::unique_ptr<PgReadConnection>>>();
            gap->second = std::make_unique<PgReadConnection>(*standby);
            gap->first = std::move(standby);
            PgReadConnection *view = gap->second.get();
            return ConnectionLease(view, [gap]() mutable { gap.reset(); });
        }
    }
    return ConnectionLease(reader, [this, reader] {
        if (reader->connection().inTransaction())
            reader->connection().exec("ROLLBACK");
        m_readers.release(reader);
    });
}

std::unique_ptr<PgConnection> PgStore::connectToAnyServer()
{
    std::string error;
    auto connection = PgConnection::open(m_url, error, "any");
    if (!connection || !connection->execOk("SET default_transaction_read_only = on"))
        return nullptr;
    qCWarning(lcPg) << "no primary: this read is served by" << connection->describe().c_str();
    return connection;
}

std::optional<std::int64_t> PgStore::openWriteStartedAtMs() const
{
    return m_openWrites.oldest();
}

} // namespace buzz::relay::store
