#include "relay/store/WalCheckpointer.h"

#include <QLoggingCategory>

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

int WalCheckpointer::walHook(void *context, sqlite3 *db, const char *name, int pages)
{
    // On the writer thread, after each COMMIT, with the WAL's frame count.
    auto *self = static_cast<WalCheckpointer *>(context);
    if (pages < self->m_pages.load()) {
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
        lock.lock();
        m_busy = false;
        m_copiedFrames.store(copied);
        m_passDone.store(rc == SQLITE_OK && copied >= 0);
    }
}

} // namespace buzz::relay::store
