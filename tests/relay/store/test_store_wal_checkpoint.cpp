// The on-disk writer's WAL: checkpointed from a connection and thread of its own
// (store::WalCheckpointer), so the writer thread never copies the WAL into the database file, and
// written through store::WalWriteBuffer, which hands a commit's frames to the file system at once.
// What a user relies on: the WAL file stays bounded under a sustained stream of commits (it
// restarts from its beginning once every frame is copied), every committed row is there after a
// reopen, and another connection reads every committed row as soon as its COMMIT returned; and a
// small store's WAL is small: its threshold follows the database's size and a WAL that outgrew it
// is cut back to it once it restarts.

#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <string>

using namespace buzz::relay;

class TestStoreWalCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void theWalStaysBoundedWhileCheckpointsRunOffTheWriter()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        constexpr int kCommits = 1000;
        const std::string record(64 * 1024, 'x'); // 16 pages per commit: 64 MB of WAL in all
        const QString wal = dir.path() + "/relay.sqlite3-wal";
        qint64 largestWal = 0;
        {
            std::string error;
            auto database = store::SqliteStore::open(dir.path().toStdString(), error);
            QVERIFY2(database, error.c_str());
            database->setWalCheckpointPages(256); // 1 MiB
            for (int i = 0; i < kCommits; ++i) {
                auto transaction = database->beginWrite("local", 1'790'000'000'000 + i);
                QVERIFY(transaction);
                QVERIFY(transaction->appendRecord(1'790'000'000'000 + i, record));
                QVERIFY(transaction->commit(1'790'000'000'000 + i));
                largestWal = std::max(largestWal, QFileInfo(wal).size());
            }
            QTRY_VERIFY_WITH_TIMEOUT(database->walCheckpoints() >= 1, 30000);
        }
        // Without checkpoints, or with background passes the writer never catches up with, the
        // file would hold all 64 MB; here it restarts every few MB (half of it
        // leaves room for a checkpoint thread starved of CPU on a loaded machine).
        QVERIFY2(largestWal < 32 * 1024 * 1024, std::to_string(largestWal).c_str());

        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2((dir.path() + "/relay.sqlite3").toUtf8().constData(), &db,
                                 SQLITE_OPEN_READONLY, nullptr),
                 SQLITE_OK);
        sqlite3_stmt *count = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db,
                                    "SELECT count(*), sum(length(change)) FROM commit_log "
                                    "WHERE length(change) = 65536",
                                    -1, &count, nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_step(count), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(count, 0), kCommits);
        sqlite3_finalize(count);
        sqlite3_close(db);
    }

    void theThresholdFollowsTheDatabaseSize()
    {
        using store::WalCheckpointer;
        QCOMPARE(WalCheckpointer::thresholdFor(0, WalCheckpointer::kDefaultPages),
                 WalCheckpointer::kMinPages);
        QCOMPARE(WalCheckpointer::thresholdFor(8000, WalCheckpointer::kDefaultPages), 2000);
        QCOMPARE(WalCheckpointer::thresholdFor(1'000'000, WalCheckpointer::kDefaultPages),
                 WalCheckpointer::kDefaultPages);
        QCOMPARE(WalCheckpointer::thresholdFor(1'000'000, 256), 256); // a cap below the minimum
    }

    void aSmallStoresWalIsCutBackAfterACheckpoint()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString wal = dir.path() + "/relay.sqlite3-wal";
        std::string error;
        auto database = store::SqliteStore::open(dir.path().toStdString(), error);
        QVERIFY2(database, error.c_str());
        std::int64_t nowMs = 1'790'000'000'000;
        const auto commit = [&](const std::string &record) {
            ++nowMs;
            auto transaction = database->beginWrite("local", nowMs);
            return transaction && transaction->appendRecord(nowMs, record)
                && transaction->commit(nowMs);
        };

        // A reader holding its snapshot keeps every checkpoint from finishing: the WAL grows far
        // past the threshold (3,200 frames against 1,024).
        sqlite3 *reader = nullptr;
        QCOMPARE(sqlite3_open_v2((dir.path() + "/relay.sqlite3").toUtf8().constData(), &reader,
                                 SQLITE_OPEN_READONLY, nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM commit_log;", nullptr, nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_stmt *pageSize = nullptr;
        QCOMPARE(sqlite3_prepare_v2(reader, "PRAGMA page_size", -1, &pageSize, nullptr), SQLITE_OK);
        QCOMPARE(sqlite3_step(pageSize), SQLITE_ROW);
        const qint64 page = sqlite3_column_int64(pageSize, 0);
        sqlite3_finalize(pageSize);
        // The documented bound (relay/README.md "The store on disk"): the writer's
        // journal_size_limit, the threshold's frames (a small store's is kMinPages).
        const qint64 bound = 32 + qint64(store::WalCheckpointer::kMinPages) * (page + 24);
        const std::string large(64 * 1024, 'x');
        for (int i = 0; i < 200; ++i)
            QVERIFY(commit(large));
        QVERIFY2(QFileInfo(wal).size() > 2 * bound, std::to_string(QFileInfo(wal).size()).c_str());
        QCOMPARE(sqlite3_exec(reader, "COMMIT;", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(reader);

        // Writes go on; once a checkpoint copied every frame the WAL restarts, and the first
        // commit after that cuts the file back to the bound (without journal_size_limit it would
        // keep its 13 MB for good).
        const std::string small(1000, 'y');
        QTRY_VERIFY_WITH_TIMEOUT(commit(small) && QFileInfo(wal).size() <= bound, 30000);
    }

    void anotherConnectionReadsEachCommitAsSoonAsItReturns()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string error;
        auto database = store::SqliteStore::open(dir.path().toStdString(), error);
        QVERIFY2(database, error.c_str());
        for (int i = 0; i < 300; ++i) {
            // 5 pages and a bit, different in every commit: a stale or missing frame shows.
            const std::string record = std::to_string(i) + std::string(20000, char('a' + i % 26));
            std::int64_t lsn = 0;
            {
                auto transaction = database->beginWrite("local", 1'790'000'000'000 + i);
                QVERIFY(transaction);
                QVERIFY(transaction->appendRecord(1'790'000'000'000 + i, record));
                QVERIFY(transaction->commit(1'790'000'000'000 + i));
                lsn = database->lastLsn();
            }
            store::ConnectionLease lease = database->leaseWriterConnection();
            QVERIFY(lease);
            auto read = store::SqliteReadConnection::of(lease).prepare(
                "SELECT change FROM commit_log WHERE lsn = ?1");
            read.bind(1, lsn);
            QVERIFY(read.step());
            QVERIFY2(read.text(0) == record, ("commit " + std::to_string(i)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestStoreWalCheckpoint)
#include "test_store_wal_checkpoint.moc"
