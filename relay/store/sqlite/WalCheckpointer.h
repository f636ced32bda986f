#pragma once

#include "relay/store/sqlite/SqliteConnection.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace buzz::relay::store {

// Checkpoints the writer's WAL from a connection and thread of its own (`buzz-checkpoint`), so the
// writer thread never copies WAL frames into the database file nor waits for that copy's fsyncs:
// SQLite lets any connection on the file checkpoint, and a PASSIVE checkpoint runs beside the
// writer (it takes no writer lock). The writer's own automatic checkpoint is replaced by a WAL hook
// that wakes this thread once the WAL holds `pages()` frames after a commit.
//
// The WAL file restarts from its beginning only at a write that finds every frame copied, which a
// checkpoint beside a busy writer never leaves (the writer appends while it copies). So once a
// background pass has left at most kCatchUpFrames uncopied, the writer's hook copies that rest
// itself (what the writer's automatic checkpoint did for the whole WAL), and the next write
// restarts the file: the WAL stays bounded under a sustained load.
//
// A small store keeps a small WAL (relay/README.md "The store on disk"): the threshold is a
// quarter of the database's pages, at least kMinPages and at most pages() (the cap), so a store
// of 10k events no longer carries a 64 MiB WAL; and the writer's journal_size_limit follows the
// threshold, so a WAL that outgrew it (a long reader held the checkpoint back, one large group) is
// cut back to it by the first commit after the WAL restarts.
//
// Durability is the same as the writer's automatic checkpoint: the checkpoint connection runs
// synchronous=FULL, so the WAL is synced before its frames are copied and the database file after;
// every COMMIT was already durable in the WAL before its OK.
class WalCheckpointer
{
public:
    // 16,000 pages (64 MiB of WAL with 4 KiB pages): a page rewritten by many group commits is
    // copied once per checkpoint (4,000: ~13.1 KB written per ingested event; 16,000: ~11.7 KB).
    static constexpr int kDefaultPages = 16000;
    // The smallest threshold (4 MiB with 4 KiB pages), and the share of the database above it.
    static constexpr int kMinPages = 1024;
    static constexpr int kDatabaseShare = 4;
    // The threshold for a database of `databasePages`: databasePages / kDatabaseShare within
    // [kMinPages, cap] (the cap wins when it is below kMinPages).
    static int thresholdFor(std::int64_t databasePages, int cap);
    // The most the writer copies itself, after a background pass (4 MiB with 4 KiB pages).
    static constexpr int kCatchUpFrames = 1024;

    // Opens the checkpoint connection on `path` and hooks `writer`; nullptr with `error` set.
    static std::unique_ptr<WalCheckpointer> start(SqliteConnection &writer, const std::string &path,
                                                  std::string &error);
    ~WalCheckpointer(); // stops the thread (a checkpoint in progress finishes first)
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    // The cap of the threshold (kDefaultPages unless set).
    void setPages(int pages)
    {
        m_pages.store(pages);
        updateThreshold();
    }
    int pages() const { return m_pages.load(); }
    // WAL frames after which a checkpoint runs now, for the database's current size.
    int threshold() const { return m_threshold.load(); }
    // On the writer's thread, between its transactions: its journal_size_limit follows
    // threshold() (bytes). A PRAGMA on the writer connection, so never from another thread.
    void applyJournalLimit();
    // Background passes run so far, and catch-ups the writer ran (each followed by a WAL restart).
    std::uint64_t checkpoints() const { return m_checkpoints.load(); }
    std::uint64_t catchUps() const { return m_catchUps.load(); }

private:
    WalCheckpointer(SqliteConnection &writer, std::unique_ptr<SqliteConnection> connection);
    static int walHook(void *self, sqlite3 *db, const char *name, int pages);
    void run();
    // Reads the database's page count on the checkpoint connection and sets the threshold.
    void measureDatabase();
    void updateThreshold();

    SqliteConnection &m_writer;
    std::unique_ptr<SqliteConnection> m_connection;
    std::atomic<int> m_pages {kDefaultPages};
    std::atomic<std::int64_t> m_databasePages {0};
    std::atomic<int> m_threshold {kMinPages};
    std::atomic<std::int64_t> m_pageSize {4096};
    int m_appliedLimitPages = -1; // the writer's journal_size_limit, in pages (writer thread)
    std::atomic<std::uint64_t> m_checkpoints {0};
    std::atomic<std::uint64_t> m_catchUps {0};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_busy = false; // a background pass is requested or running
    // A pass finished since the WAL last crossed pages(), and the frames it had copied then.
    std::atomic<bool> m_passDone {false};
    std::atomic<int> m_copiedFrames {0};
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace buzz::relay::store
