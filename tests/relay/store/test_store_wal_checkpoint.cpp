// The on-disk writer's WAL: checkpointed from a connection and thread of its own
// (store::WalCheckpointer), so the writer thread never copies the WAL into the database file, and
// written through store::WalWriteBuffer, which hands a commit's frames to the file system at once.
// What a user relies on: the WAL file stays bounded under a sustained stream of commits (it
// restarts from its beginning once every frame is copied), every committed row is there after a
// reopen, and another connection reads every committed row as soon as its COMMIT returned.

#include "relay/store/Database.h"

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
            auto database = store::Database::open(dir.path().toStdString(), error);
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

    void anotherConnectionReadsEachCommitAsSoonAsItReturns()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string error;
        auto database = store::Database::open(dir.path().toStdString(), error);
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
            auto read = lease.connection().prepare("SELECT change FROM commit_log WHERE lsn = ?1");
            read.bind(1, lsn);
            QVERIFY(read.step());
            QVERIFY2(read.text(0) == record, ("commit " + std::to_string(i)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestStoreWalCheckpoint)
#include "test_store_wal_checkpoint.moc"
