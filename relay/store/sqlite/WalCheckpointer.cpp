#include "relay/store/sqlite/WalCheckpointer.h"

#include <QLoggingCategory>

#include <algorithm>
#include <string>

#include <pthread.h>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace buzz::relay::store {

std::unique_ptr<WalCheckpointer> WalCheckpointer::start(SqliteConnection &writer,
                                                        const std::string &path, std::string &error)
{
    // A writer-role connection: read-write, WAL, synchronous=FULL (the checkpoint's fsyncs). It
    // never writes a transaction of its own.
    auto connection = SqliteConnection::open(path, SqliteConnection::Role::Writer, error);
    if (!connection)
        return nullptr;
    if (!connection->exec("PRAGMA wal_autocheckpoint=0;")) {
        error = connection->lastError();
        return nullptr;
    }
    std::unique_ptr<WalCheckpointer> checkpointer(
        new WalCheckpointer(writer, std::move(connection)));
    checkpointer->measureDatabase();
    checkpointer->applyJournalLimit();
    // Replaces the writer's automatic checkpoint (sqlite3_wal_autocheckpoint is this same hook).
    sqlite3_wal_hook(writer.handle(), &WalCheckpointer::walHook, checkpointer.get());
    checkpointer->m_thread = std::thread([raw = checkpointer.get()] {
        pthread_setname_np(pthread_self(), "buzz-checkpoint");
        raw->run();
    });
    return checkpointer;
}

WalCheckpointer::WalCheckpointer(SqliteConnection &writer,
                                 std::unique_ptr<SqliteConnection> connection)
    : m_writer(writer)
    , m_connection(std::move(connection))
{ }

WalCheckpointer::~WalCheckpointer()
{
    sqlite3_wal_hook(m_writer.handle(), nullptr, nullptr);
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

int WalCheckpointer::thresholdFor(std::int64_t databasePages, int cap)
{
    const std::int64_t share = std::max<std::int64_t>(kMinPages, databasePages / kDatabaseShare);
    return int(std::min<std::int64_t>(cap, share));
}

void WalCheckpointer::updateThreshold()
{
    m_threshold.store(thresholdFor(m_databasePages.load(), m_pages.load()));
}

void WalCheckpointer::measureDatabase()
{
    const auto single = [&](const char *sql) -> std::int64_t {
        auto statement = m_connection->prepare(sql);
        return statement.step() ? statement.int64(0) : 0;
    };
    if (const std::int64_t pageSize = single("PRAGMA page_size"); pageSize > 0)
        m_pageSize.store(pageSize);
    m_databasePages.store(single("PRAGMA page_count"));
    updateThreshold();
}

void WalCheckpointer::applyJournalLimit()
{
    const int pages = m_threshold.load();
    if (pages == m_appliedLimitPages)
        return;
    // The WAL's frames are a page and a 24-byte header each, after a 32-byte file header.
    const std::int64_t bytes = 32 + std::int64_t(pages) * (m_pageSize.load() + 24);
    if (m_writer.exec(("PRAGMA journal_size_limit=" + std::to_string(bytes) + ";").c_str()))
        m_appliedLimitPages = pages;
}

int WalCheckpointer::walHook(void *context, sqlite3 *db, const char *name, int pages)
{
    // On the writer thread, after each COMMIT, with the WAL's frame count.
    auto *self = static_cast<WalCheckpointer *>(context);
    if (pages < self->m_threshold.load()) {
        // Below the mark after a pass: the WAL restarted, what that pass copied is gone. (A pass
        // that finished just after the restart leaves a stale mark: the writer then copies one
        // WAL itself, as its automatic checkpoint did every time.)
        if (self->m_passDone.load(std::memory_order_relaxed))
            self->m_passDone.store(false, std::memory_order_relaxed);
        return SQLITE_OK;
    }
    std::unique_lock lock(self->m_mutex);
    if (self->m_busy)
        return SQLITE_OK; // a pass is copying
    if (self->m_passDone && pages - self->m_copiedFrames <= kCatchUpFrames) {
        self->m_passDone = false;
        lock.unlock();
        // The few frames written while the pass ran: with all copied, the next write restarts
        // the WAL from its beginning.
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        self->m_catchUps.fetch_add(1);
        return SQLITE_OK;
    }
    self->m_passDone = false;
    self->m_busy = true;
    lock.unlock();
    self->m_wake.notify_one();
    return SQLITE_OK;
}

void WalCheckpointer::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_busy || m_stopping; });
        if (m_stopping)
            return;
        lock.unlock();
        int walFrames = -1, copied = -1;
        const int rc = sqlite3_wal_checkpoint_v2(m_connection->handle(), nullptr,
                                                 SQLITE_CHECKPOINT_PASSIVE, &walFrames, &copied);
        if (rc != SQLITE_OK)
            qCWarning(lcStore) << "WAL checkpoint failed:" << m_connection->lastError().c_str();
        m_checkpoints.fetch_add(1);
        measureDatabase(); // the store grew: the next threshold follows it
        lock.lock();
        m_busy = false;
        m_copiedFrames.store(copied);
        m_passDone.store(rc == SQLITE_OK && copied >= 0);
    }
}

} // namespace buzz::relay::store
