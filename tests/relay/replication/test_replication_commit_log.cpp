// The commit log stays bounded (store::CommitLogRetention): a relay without replicas keeps only
// the tail, records every replica applied are trimmed down to it, and a replica that needs a
// record the writer no longer has re-seeds from a snapshot of the writer and then serves every
// row. Small bounds so a few dozen events cross them; manual clock, explicit replay: nothing
// sleeps.

#include "test_routing_support.h"

#include "relay/store/sqlite/SqliteStore.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <algorithm>

using namespace routingtest;

namespace {
const std::string kChannel = "3d9a1c2e-5b6f-4a70-8c91-d2e3f4a5b607";

store::CommitLogRetention smallLog()
{
    store::CommitLogRetention retention;
    retention.tailRecords = 5;
    retention.maxBacklogRecords = 12;
    retention.trimBatchRecords = 1;
    return retention;
}

// Rows of a writer file's commit log, read from a connection of its own.
int commitLogRows(const QString &dir)
{
    sqlite3 *db = nullptr;
    int rows = -1;
    if (sqlite3_open_v2((dir + "/relay.sqlite3").toUtf8().constData(), &db, SQLITE_OPEN_READONLY,
                        nullptr)
        == SQLITE_OK) {
        sqlite3_stmt *statement = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM commit_log", -1, &statement, nullptr)
                == SQLITE_OK
            && sqlite3_step(statement) == SQLITE_ROW)
            rows = sqlite3_column_int(statement, 0);
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return rows;
}

std::vector<std::string> sorted(std::vector<std::string> ids)
{
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::string strongChannelFilter(const std::string &channel, int limit)
{
    return "[{\"kinds\":[9],\"#h\":[\"" + channel + "\"],\"limit\":" + std::to_string(limit)
        + ",\"consistency\":\"strong\"}]";
}
} // namespace

class TestReplicationCommitLog : public QObject
{
    Q_OBJECT

private slots:
    void relayWithoutReplicasKeepsOnlyTheTail();
    void appliedRecordsAreTrimmedToTheTail();
    void replicaWithinTheTailReplaysWithoutReseed();
    void replicaBehindTheTrimmedTailReseedsAndServesEveryRow();
    void replicasStartFromASnapshotOfATrimmedLog();
};

void TestReplicationCommitLog::relayWithoutReplicasKeepsOnlyTheTail()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::vector<std::string> posted;
    {
        RoutingHarness h(
            {.replicas = 0, .dataDir = dir.path().toStdString(), .commitLog = smallLog()});
        QVERIFY(!h.createChannel(kChannel).empty());
        for (int i = 0; i < 40; ++i)
            posted.push_back(h.post(kChannel, h.nowSec() - i, "note " + std::to_string(i)));
        QVERIFY(std::count(posted.begin(), posted.end(), std::string()) == 0);
        // 41 records written, the tail of 5 kept: the LSN goes on counting.
        QVERIFY(h.engine->metricsText().find("buzz_commit_log_lsn 41\n") != std::string::npos);
    }
    QCOMPARE(commitLogRows(dir.path()), 5);
    // Trimming the log removed no event, and a restart goes on from the newest LSN.
    RoutingHarness reopened(
        {.replicas = 0, .dataDir = dir.path().toStdString(), .commitLog = smallLog()});
    QCOMPARE(sorted(RoutingHarness::ids(reopened.read(channelFilter(kChannel, 100)))),
             sorted(posted));
    QVERIFY(!reopened.post(kChannel, reopened.nowSec(), "after restart").empty());
    QVERIFY(reopened.engine->metricsText().find("buzz_commit_log_lsn 42\n") != std::string::npos);
}

void TestReplicationCommitLog::appliedRecordsAreTrimmedToTheTail()
{
    RoutingHarness h({.replicas = 1, .commitLog = smallLog()});
    store::SqliteStore &writer = h.sqliteReplicas().database();
    h.createChannel(kChannel);
    for (int i = 0; i < 30; ++i) {
        QVERIFY(!h.post(kChannel, h.nowSec(), "in step " + std::to_string(i)).empty());
        h.beatAndReplay();
    }
    // Everything was applied as it came, so only the tail (plus what the replica has not yet
    // reported when the last commit trimmed) is left.
    const std::int64_t newest = h.sqliteReplicas().writerLsn();
    QCOMPARE(h.sqliteReplica().appliedLsn(), newest);
    QVERIFY2(newest - writer.commitLogFirstLsn() + 1 <= smallLog().tailRecords + 2,
             (std::to_string(newest) + " vs first " + std::to_string(writer.commitLogFirstLsn()))
                 .c_str());
    QCOMPARE(h.sqliteReplica().reseeds(), 0u);
}

void TestReplicationCommitLog::replicaWithinTheTailReplaysWithoutReseed()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000, .commitLog = smallLog()});
    h.createChannel(kChannel);
    h.beatAndReplay();
    h.sqliteReplica().setPaused(true);
    std::vector<std::string> posted;
    for (int i = 0; i < 3; ++i)
        posted.push_back(h.post(kChannel, h.nowSec() - i, "while paused " + std::to_string(i)));
    h.beatAndReplay(); // paused: nothing replayed
    h.sqliteReplica().setPaused(false);
    h.beatAndReplay();
    QCOMPARE(h.sqliteReplica().reseeds(), 0u);
    const auto page = h.read(channelFilter(kChannel, 100));
    QCOMPARE(page.route, std::string("replica"));
    QCOMPARE(sorted(RoutingHarness::ids(page)), sorted(posted));
}

void TestReplicationCommitLog::replicaBehindTheTrimmedTailReseedsAndServesEveryRow()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000, .commitLog = smallLog()});
    store::SqliteStore &writer = h.sqliteReplicas().database();
    h.createChannel(kChannel);
    std::vector<std::string> posted {h.post(kChannel, h.nowSec() - 100, "before the pause")};
    h.beatAndReplay();
    h.sqliteReplica().setPaused(true);
    const std::int64_t pausedAt = h.sqliteReplica().appliedLsn();
    for (int i = 0; i < 30; ++i) {
        posted.push_back(h.post(kChannel, h.nowSec() - i, "while paused " + std::to_string(i)));
        h.beatAndReplay(); // the replica tier fetches, the paused replica applies nothing
    }
    // The backlog bound let the writer trim past the paused replica.
    QVERIFY(writer.commitLogFirstLsn() > pausedAt + 1);
    QCOMPARE(h.sqliteReplica().appliedLsn(), pausedAt);

    h.sqliteReplica().setPaused(false);
    h.beatAndReplay();
    // Served by the re-seeded replica, and every row the writer has.
    const auto page = h.read(channelFilter(kChannel, 100));
    QCOMPARE(page.route, std::string("replica"));
    QCOMPARE(sorted(RoutingHarness::ids(page)), sorted(posted));
    QCOMPARE(sorted(RoutingHarness::ids(h.read(strongChannelFilter(kChannel, 100)))),
             sorted(posted));
    QCOMPARE(h.sqliteReplica().appliedLsn(), h.sqliteReplicas().writerLsn());
    QCOMPARE(h.sqliteReplica().reseeds(), 1u);
    QVERIFY(h.engine->metricsText().find("buzz_replica_reseeds_total{pool=\"replica-0\"} 1")
            != std::string::npos);
    // And it replays again from there.
    posted.push_back(h.post(kChannel, h.nowSec(), "after the re-seed"));
    h.beatAndReplay();
    const auto after = h.read(channelFilter(kChannel, 100));
    QCOMPARE(after.route, std::string("replica"));
    QCOMPARE(sorted(RoutingHarness::ids(after)), sorted(posted));
    QCOMPARE(h.sqliteReplica().reseeds(), 1u);
}

void TestReplicationCommitLog::replicasStartFromASnapshotOfATrimmedLog()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::vector<std::string> posted;
    {
        RoutingHarness first(
            {.replicas = 0, .dataDir = dir.path().toStdString(), .commitLog = smallLog()});
        QVERIFY(!first.createChannel(kChannel).empty());
        for (int i = 0; i < 20; ++i)
            posted.push_back(first.post(kChannel, first.nowSec() - i, "n" + std::to_string(i)));
    }
    QCOMPARE(commitLogRows(dir.path()), 5);
    // The log no longer starts at 1: replaying it would miss rows, the snapshot has them all.
    RoutingHarness h({.replicas = 2,
                      .budgetMs = 1000,
                      .dataDir = dir.path().toStdString(),
                      .commitLog = smallLog()});
    h.beatAndReplay();
    for (int index = 0; index < 2; ++index) {
        QCOMPARE(h.sqliteReplica(index).appliedLsn(), h.sqliteReplicas().writerLsn());
        QCOMPARE(h.sqliteReplica(index).reseeds(), 0u); // the first seed is not a re-seed
    }
    const auto page = h.read(channelFilter(kChannel, 100));
    QCOMPARE(page.route, std::string("replica"));
    QCOMPARE(sorted(RoutingHarness::ids(page)), sorted(posted));
}

QTEST_GUILESS_MAIN(TestReplicationCommitLog)
#include "test_replication_commit_log.moc"
