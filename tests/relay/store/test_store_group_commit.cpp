// Group commit under concurrency: many writers share one writer transaction, each under its own
// savepoint. What a client relies on must not change: an event answered accepted is stored exactly
// once and survives a restart, a rejected or duplicate one leaves nothing, compare-and-swap stays
// strictly serial, and the commit log holds one record per accepted event in commit order.

#include "test_engine_support.h"

#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace enginetest;

namespace {

struct CommitRecord
{
    std::int64_t lsn;
    nlohmann::json change;
};

std::vector<CommitRecord> readCommitLog(const QString &dir)
{
    std::vector<CommitRecord> records;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2((dir + "/relay.sqlite3").toUtf8().constData(), &db, SQLITE_OPEN_READONLY,
                        nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return records;
    }
    sqlite3_stmt *statement = nullptr;
    sqlite3_prepare_v2(db, "SELECT lsn, change FROM commit_log ORDER BY lsn", -1, &statement,
                       nullptr);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        records.push_back(CommitRecord {sqlite3_column_int64(statement, 0),
                                        nlohmann::json::parse(reinterpret_cast<const char *>(
                                            sqlite3_column_text(statement, 1)))});
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return records;
}

// The event ids a commit-log record inserted.
std::vector<std::string> insertedIds(const nlohmann::json &change)
{
    std::vector<std::string> ids;
    for (const auto &op : change.value("ops", nlohmann::json::array())) {
        if (op.value("op", "") == "event")
            ids.push_back(nlohmann::json::parse(op.value("json", "{}")).value("id", ""));
    }
    return ids;
}

} // namespace

class TestEngineGroupCommit : public QObject
{
    Q_OBJECT

private slots:
    void concurrentMixedIngestStoresExactlyTheAcceptedEvents()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Identity owner;
        constexpr int kThreads = 8;
        constexpr int kPerThread = 150;
        std::mutex resultsMutex;
        std::map<std::string, int> storedCount; // id → how many submissions were answered Stored
        std::set<std::string> refused; // ids never answered Stored
        std::set<std::string> sharedIds;
        {
            EngineHarness h(dir.path().toStdString());
            QVERIFY(h.engine->startupError().empty());
            QVERIFY(!h.createChannel(owner, kChannelA).empty());
            QVERIFY(!h.createChannel(owner, kChannelB, "private").empty());
            // Every thread also submits these same events: exactly one submission of each may be
            // answered Stored, all others "duplicate:".
            std::vector<nostr::Event> shared;
            for (int i = 0; i < 20; ++i) {
                shared.push_back(
                    owner.sign(9, h.now, {{"h", kChannelA}}, "shared " + std::to_string(i)));
                sharedIds.insert(shared.back().id);
            }
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&, t] {
                    Identity writer;
                    for (int i = 0; i < kPerThread; ++i) {
                        nostr::Event event;
                        RequestContext context = writer.http();
                        switch (i % 5) {
                        case 0: // refused: not a member of the private channel
                            event = writer.sign(9, h.now, {{"h", kChannelB}},
                                                "outsider " + std::to_string(t * 1000 + i));
                            break;
                        case 1: // the shared events, by their author
                            event = shared[std::size_t((t + i) % int(shared.size()))];
                            context = owner.http();
                            break;
                        default:
                            event = writer.sign(9, h.now, {{"h", kChannelA}},
                                                "note " + std::to_string(t * 1000 + i));
                        }
                        const auto result = h.engine->ingest(event, context);
                        std::lock_guard lock(resultsMutex);
                        if (result.status == IngestResult::Status::Stored)
                            ++storedCount[event.id];
                        else if (result.status != IngestResult::Status::Duplicate)
                            refused.insert(event.id);
                    }
                });
            }
            for (auto &thread : threads)
                thread.join();

            for (const auto &[id, count] : storedCount)
                QCOMPARE(count, 1);
            for (const auto &id : sharedIds)
                QVERIFY2(storedCount.count(id) == 1, "a shared event was never stored");
            QCOMPARE(int(refused.size()), kThreads * kPerThread / 5);
            for (const auto &id : refused)
                QVERIFY(storedCount.count(id) == 0);
        }
        // After a restart on the same files every accepted event is there, and no refused one.
        {
            EngineHarness reopened(dir.path().toStdString());
            const auto stored = reopened.query(owner, "[{\"kinds\":[9],\"limit\":1000}]");
            std::set<std::string> found;
            for (const auto &row : stored)
                found.insert(row.event.id);
            QCOMPARE(found.size(), storedCount.size());
            for (const auto &[id, count] : storedCount)
                QVERIFY(found.count(id) == 1);
        }
        // One commit-log record per accepted event (plus the two channel creations), strictly
        // increasing LSNs, each accepted event in exactly one record.
        const auto log = readCommitLog(dir.path());
        QCOMPARE(log.size(), storedCount.size() + 2);
        std::set<std::string> logged;
        for (std::size_t i = 0; i < log.size(); ++i) {
            if (i > 0)
                QVERIFY(log[i].lsn > log[i - 1].lsn);
            for (const auto &id : insertedIds(log[i].change))
                QVERIFY2(logged.insert(id).second, "an event appears in two commit-log records");
        }
        for (const auto &[id, count] : storedCount)
            QVERIFY2(logged.count(id) == 1, "an accepted event has no commit-log record");
    }

    void aFailingWorkRollsBackOnlyItself()
    {
        // Store level: works that write and then throw (or simply do not commit) leave nothing,
        // while the works grouped with them commit.
        std::string error;
        auto database = store::SqliteStore::open(std::nullopt, error);
        QVERIFY2(database, error.c_str());
        constexpr int kThreads = 4;
        constexpr int kEach = 60;
        std::atomic<int> committed {0}, discarded {0}, failed {0};
        std::atomic<bool> held {false};
        std::atomic<bool> heldUntilAllQueued {false};
        // Every thread submits only once all have started: otherwise, on a loaded machine, one
        // thread can run all its works before the next thread exists, and no two works ever meet.
        std::latch started(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                started.arrive_and_wait();
                for (int i = 0; i < kEach; ++i) {
                    const std::string key = "t-" + std::to_string(t) + "-" + std::to_string(i);
                    const auto outcome = database->writeInGroup(
                        "local", EngineHarness::kStart * 1000, [&](store::WriteTransaction &work) {
                            auto &tx = store::SqliteStore::sqlite(work);
                            auto insert = tx.connection().prepare(
                                "INSERT INTO relay_meta (key, value) VALUES (?1, 'x')");
                            insert.bind(1, std::string_view(key));
                            if (!insert.run())
                                return;
                            if (!held.exchange(true)) {
                                // Hold the first work until every thread has queued one (the
                                // running work is still in the queue), so the next group holds
                                // a throwing, a rejected and a committing work.
                                QDeadlineTimer deadline(60000);
                                while (database->queuedWrites() < std::size_t(kThreads)
                                       && !deadline.hasExpired())
                                    std::this_thread::yield();
                                heldUntilAllQueued = !deadline.hasExpired();
                            }
                            if ((t + i) % 3 == 0)
                                throw std::runtime_error("bad event");
                            if ((t + i) % 3 == 1)
                                return; // a rejection: no commit
                            tx.commit(EngineHarness::kStart * 1000);
                        });
                    switch (outcome) {
                    case store::SqliteStore::GroupOutcome::Committed:
                        ++committed;
                        break;
                    case store::SqliteStore::GroupOutcome::Discarded:
                        ++discarded;
                        break;
                    case store::SqliteStore::GroupOutcome::Failed:
                        ++failed;
                        break;
                    }
                }
            });
        }
        for (auto &thread : threads)
            thread.join();
        QVERIFY2(heldUntilAllQueued, "the other threads never queued behind the first work");
        QCOMPARE(failed.load(), 0);
        QCOMPARE(committed.load(), kThreads * kEach / 3);
        QCOMPARE(discarded.load(), kThreads * kEach * 2 / 3);
        auto lease = database->leaseWriterConnection();
        auto count = store::SqliteReadConnection::of(lease).prepare(
            "SELECT COUNT(*) FROM relay_meta WHERE key LIKE 't-%'");
        QVERIFY(count.step());
        QCOMPARE(int(count.int64(0)), kThreads * kEach / 3);
        const auto stats = database->groupCommitStats();
        QCOMPARE(int(stats.members), kThreads * kEach);
        QVERIFY2(stats.groups < stats.members, "no two works ever shared a transaction");
        qInfo("%d works in %d writer transactions", int(stats.members), int(stats.groups));
    }

    void asynchronousWritesAreReportedOnlyOnceCommitted()
    {
        // writeInGroupAsync (the WebSocket ingest path): the caller does not wait, and the report
        // comes only when another connection can already read the row; writes still queued when
        // the database closes are run, not dropped.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.path().toStdString() + "/relay.sqlite3";
        const auto visibleElsewhere = [&](const std::string &key) {
            sqlite3 *db = nullptr;
            sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
            sqlite3_stmt *select = nullptr;
            sqlite3_prepare_v2(db, "SELECT 1 FROM relay_meta WHERE key = ?1", -1, &select, nullptr);
            sqlite3_bind_text(select, 1, key.c_str(), -1, SQLITE_TRANSIENT);
            const bool found = sqlite3_step(select) == SQLITE_ROW;
            sqlite3_finalize(select);
            sqlite3_close(db);
            return found;
        };
        const auto insertWork = [](std::string key) {
            return [key = std::move(key)](store::WriteTransaction &work) {
                auto &tx = store::SqliteStore::sqlite(work);
                auto insert =
                    tx.connection().prepare("INSERT INTO relay_meta (key, value) VALUES (?1, 'a')");
                insert.bind(1, std::string_view(key));
                if (insert.run())
                    tx.commit(EngineHarness::kStart * 1000);
            };
        };
        constexpr int kThreads = 4;
        constexpr int kEach = 50;
        std::mutex mutex;
        std::map<std::string, store::SqliteStore::GroupOutcome> reported;
        std::set<std::string> unreadableWhenReported;
        {
            std::string error;
            auto database = store::SqliteStore::open(dir.path().toStdString(), error);
            QVERIFY2(database, error.c_str());
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&, t] {
                    for (int i = 0; i < kEach; ++i) {
                        const std::string key = "a-" + std::to_string(t) + "-" + std::to_string(i);
                        database->writeInGroupAsync(
                            "local", EngineHarness::kStart * 1000, insertWork(key),
                            [&, key](store::SqliteStore::GroupOutcome outcome) {
                                const bool visible = visibleElsewhere(key);
                                std::lock_guard lock(mutex);
                                reported[key] = outcome;
                                if (!visible)
                                    unreadableWhenReported.insert(key);
                            });
                    }
                });
            }
            for (auto &thread : threads)
                thread.join();
            // A synchronous write queued behind them sees every one of them.
            int before = -1;
            QCOMPARE(database->writeInGroup("local", EngineHarness::kStart * 1000,
                                            [&](store::WriteTransaction &work) {
                                                auto &tx = store::SqliteStore::sqlite(work);
                                                auto count = tx.connection().prepare(
                                                    "SELECT COUNT(*) FROM relay_meta WHERE "
                                                    "key LIKE 'a-%'");
                                                if (count.step())
                                                    before = int(count.int64(0));
                                            }),
                     store::SqliteStore::GroupOutcome::Discarded);
            QCOMPARE(before, kThreads * kEach);
            // Queued and not yet run when the database closes.
            for (int i = 0; i < 40; ++i)
                database->writeInGroupAsync("local", EngineHarness::kStart * 1000,
                                            insertWork("z-" + std::to_string(i)),
                                            [&, i](store::SqliteStore::GroupOutcome outcome) {
                                                std::lock_guard lock(mutex);
                                                reported["z-" + std::to_string(i)] = outcome;
                                            });
        }
        QCOMPARE(int(reported.size()), kThreads * kEach + 40);
        for (const auto &[key, outcome] : reported)
            QVERIFY2(outcome == store::SqliteStore::GroupOutcome::Committed, key.c_str());
        QVERIFY2(unreadableWhenReported.empty(), "a write was reported before it committed");
        for (int i = 0; i < 40; ++i)
            QVERIFY(visibleElsewhere("z-" + std::to_string(i)));
    }

    void concurrentCanvasSavesFormOneChain()
    {
        // Writers race read-head → save(expected = head) loops on one canvas. Inside a group each
        // savepoint sees the rows of the ones before it, so the history must be a single chain:
        // every stored revision names the revision stored just before it.
        EngineHarness h;
        Identity owner;
        QVERIFY(!h.createChannel(owner, kChannelA).empty());
        constexpr int kThreads = 6;
        constexpr int kSavesEach = 15;
        std::atomic<int> conflicts {0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                Identity writer;
                int saved = 0;
                int attempt = 0;
                while (saved < kSavesEach) {
                    const auto head = h.canvasHead(writer, kChannelA);
                    const auto event = writer.sign(
                        40100, h.now + (attempt++ % 200),
                        {{"h", kChannelA}, {"expected-revision", head ? *head : "none"}},
                        "# writer " + std::to_string(t) + " save " + std::to_string(saved));
                    const auto result = h.engine->ingest(event, writer.http());
                    if (result.status == IngestResult::Status::Stored)
                        ++saved;
                    else
                        ++conflicts;
                }
            });
        }
        for (auto &thread : threads)
            thread.join();

        const auto revisions = h.query(owner, "[{\"kinds\":[40100],\"limit\":1000}]");
        QCOMPARE(int(revisions.size()), kThreads * kSavesEach);
        std::map<std::string, std::string> parentOf;
        std::set<std::string> parents;
        for (const auto &row : revisions) {
            const std::string *expected = row.event.tagValue("expected-revision");
            QVERIFY(expected);
            parentOf[row.event.id] = *expected;
            QVERIFY2(parents.insert(*expected).second, "two revisions saved over the same parent");
        }
        // Walk from the head back to "none": the chain covers every revision.
        auto cursor = h.canvasHead(owner, kChannelA);
        QVERIFY(cursor);
        int length = 0;
        std::string id = *cursor;
        while (id != "none") {
            QVERIFY2(parentOf.count(id), "chain names a revision that is not stored");
            id = parentOf[id];
            ++length;
        }
        QCOMPARE(length, kThreads * kSavesEach);
        qInfo("%d saves, %d conflicts", kThreads * kSavesEach, conflicts.load());
    }
};

QTEST_GUILESS_MAIN(TestEngineGroupCommit)
#include "test_store_group_commit.moc"
