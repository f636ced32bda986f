// The replica failure modes on the real PostgreSQL pair (ctest fixture pg_cluster), each provoked
// on the servers themselves rather than injected into the relay:
// - a standby statement outliving the reader statement_timeout is cancelled by PostgreSQL (57014)
//   and surfaced as on SQLite: HTTP 503 {"error":"query timed out"}, WS CLOSED "error: query timed
//   out", never re-run on the writer;
// - a real recovery conflict ("canceling statement due to conflict with recovery", 40001) is an
//   "other replica error": the read re-runs on the writer, reason replica_error
//   (docs/architecture.md §Failure rules);
// - a stopped standby fails closed to the writer: reads are still answered, the route says writer;
// - a reader pool held to its last connection gives, after the 150 ms acquire wait, the writer for
//   display reads and the retryable busy answer for subscription history.
// How the first two are provoked: a primary transaction holding ACCESS EXCLUSIVE on `events` is
// replayed by the standby's startup process, which then holds that lock, so a standby read of
// events waits in its snapshot. Left alone it outlives statement_timeout; if the primary then
// also locks replica_heartbeat (which the waiting read holds since its first statement), replay
// waits for the read and cancels it after max_standby_streaming_delay (1 s, pg-cluster.sh).
// cleanup() leaves the pair as it found it even when a test fails: locks released, standby
// running, replay resumed and undelayed.

#include "test_routing_support.h"

#include "RelayTestFixtureWsClient.h"
#include "relay/server/RelayServer.h"
#include "relay/store/postgres/PgConnection.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <functional>
#include <thread>

using namespace routingtest;

namespace {
const std::string kChannel = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d05";
const QByteArray kToken = "admin-secret";

struct Reply
{
    int status = 0;
    QByteArray body;
    QByteArray route;
};

std::unique_ptr<store::PgConnection> openPg(const std::string &url)
{
    std::string error;
    auto connection = store::PgConnection::open(url, error);
    if (!connection)
        qWarning("cannot connect to %s: %s", url.c_str(), error.c_str());
    return connection;
}

// Client backends of this database waiting for a lock (the servers' own state: nothing to wait
// on but polling it).
int waitingOnALock(store::PgConnection &server)
{
    store::PgResult waiting =
        server.exec("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
                    "backend_type = 'client backend' AND wait_event_type = 'Lock'");
    return waiting.ok() ? static_cast<int>(waiting.int64(0, 0)) : -1;
}

// Runs `body` on a thread; whatever happens to the test, `release` runs and the thread is joined.
class Background
{
public:
    Background(std::function<void()> body, std::function<void()> release)
        : m_release(std::move(release))
        , m_thread(std::move(body))
    { }
    ~Background() { join(); }
    void join()
    {
        if (m_release)
            std::exchange(m_release, nullptr)();
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::function<void()> m_release;
    std::thread m_thread;
};
} // namespace

class TestRoutingPgFailures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void standbyStatementTimeoutIsSurfaced();
    void recoveryConflictRerunsOnTheWriter();
    void stoppedStandbyFailsClosedToTheWriter();
    void exhaustedReaderPoolIsBusy();

private:
    bool start(HarnessOptions options);
    Reply query(const std::string &filters);
    Reply admin(const QByteArray &method, const QString &path);
    // Holds ACCESS EXCLUSIVE on events in an open primary transaction, and waits until the
    // standby replayed it (its startup process then holds the lock).
    bool lockEventsOnTheStandby();
    bool cluster(const QString &command);
    // The writer answered: HTTP 200 with the channel's row, routed to the writer for `reason`.
    void expectWriterAnswer(const Reply &reply, const char *reason)
    {
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.route, QByteArray("writer; reason=") + reason);
        QVERIFY(reply.body.contains(QByteArray::fromStdString(m_posted)));
    }
    // A WebSocket client authenticated as the channel owner (nullptr when that failed).
    std::unique_ptr<relay::test::WsTestClient> subscribe();
    static std::string historyFilter()
    {
        return "{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"limit\":5}";
    }

    std::unique_ptr<RoutingHarness> m_harness;
    std::unique_ptr<RelayServer> m_server;
    std::unique_ptr<store::PgConnection> m_blocker; // the primary transaction holding the lock
    QNetworkAccessManager m_network;
    std::string m_posted;
};

void TestRoutingPgFailures::initTestCase()
{
    if (!relay::test::PgTestCluster::selected())
        QSKIP("PostgreSQL only (BUZZ_TEST_STORE=postgres, run through ctest)");
}

bool TestRoutingPgFailures::start(HarnessOptions options)
{
    m_harness = std::make_unique<RoutingHarness>(options);
    if (!m_harness->onPostgres() || !m_harness->pgUrls)
        return false;
    RelayServer::Options serverOptions;
    serverOptions.acceptDevPubkeyHeader = true;
    serverOptions.adminToken = kToken.toStdString();
    auto clock = m_harness->clock;
    serverOptions.clock = [clock] {
        return clock->nowSec();
    };
    m_server = std::make_unique<RelayServer>(*m_harness->engine, serverOptions);
    if (!m_server->start(QStringLiteral("127.0.0.1:0")))
        return false;
    m_harness->createChannel(kChannel);
    m_posted = m_harness->post(kChannel, m_harness->nowSec() - 10, "hello");
    m_harness->beatAndReplay();
    return !m_posted.empty() && query(channelFilter(kChannel, 5)).route.startsWith("replica;");
}

void TestRoutingPgFailures::cleanup()
{
    m_blocker.reset(); // closing the connection rolls its transaction back
    if (m_server)
        m_server->stop();
    m_server.reset();
    m_harness.reset();
    if (!relay::test::PgTestCluster::selected())
        return;
    // Whatever the test did to the standby, it runs again, replaying without delay.
    QVERIFY2(cluster(QStringLiteral("start-standby")), "cannot restart the standby");
    const auto urls = relay::test::PgTestCluster::cluster();
    QVERIFY(urls);
    auto standby = openPg(urls->standby);
    QVERIFY(standby);
    QVERIFY(standby->execOk("SELECT pg_wal_replay_resume() WHERE pg_is_wal_replay_paused()"));
    QVERIFY(standby->execOk("ALTER SYSTEM RESET recovery_min_apply_delay"));
    QVERIFY(standby->execOk("ALTER SYSTEM RESET deadlock_timeout"));
    QVERIFY(standby->execOk("SELECT pg_reload_conf()"));
}

Reply TestRoutingPgFailures::query(const std::string &filters)
{
    QNetworkRequest request(QUrl(m_server->httpUrl() + QStringLiteral("/query")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    request.setRawHeader("X-Pubkey", QByteArray::fromStdString(m_harness->owner.pubkey()));
    QNetworkReply *reply = m_network.post(request, QByteArray::fromStdString(filters));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(20000);
    Reply out;
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    out.route = reply->rawHeader("X-Buzz-Read-Route");
    reply->deleteLater();
    return out;
}

Reply TestRoutingPgFailures::admin(const QByteArray &method, const QString &path)
{
    QNetworkRequest request(QUrl(m_server->httpUrl() + path));
    request.setRawHeader("Authorization", "Bearer " + kToken);
    QNetworkReply *reply = m_network.sendCustomRequest(request, method, QByteArray());
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(20000);
    Reply out;
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    reply->deleteLater();
    return out;
}

bool TestRoutingPgFailures::lockEventsOnTheStandby()
{
    m_blocker = openPg(m_harness->pgUrls->writer);
    if (!m_blocker || !m_blocker->execOk("BEGIN")
        || !m_blocker->execOk("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"))
        return false;
    // The lock's WAL record goes out with the next flush: the heartbeat's COMMIT.
    m_harness->beatAndReplay();
    return true;
}

std::unique_ptr<relay::test::WsTestClient> TestRoutingPgFailures::subscribe()
{
    auto client = std::make_unique<relay::test::WsTestClient>(QUrl(m_server->url()));
    if (!client->connectAndAuthenticate(m_harness->owner.key, m_server->url().toStdString(),
                                        m_harness->nowSec()))
        return nullptr;
    return client;
}

bool TestRoutingPgFailures::cluster(const QString &command)
{
    const QString stateDir =
        QFileInfo(QString::fromLocal8Bit(qgetenv("BUZZ_TEST_PG_CLUSTER"))).absolutePath();
    QProcess script;
    script.start(QStringLiteral(BUZZ_PG_CLUSTER_SCRIPT), {command, stateDir});
    if (!script.waitForFinished(90000) || script.exitStatus() != QProcess::NormalExit
        || script.exitCode() != 0) {
        qWarning("pg-cluster.sh %s: %s", qPrintable(command),
                 script.readAllStandardError().constData());
        return false;
    }
    return true;
}

void TestRoutingPgFailures::standbyStatementTimeoutIsSurfaced()
{
    QVERIFY(start(
        {.replicas = 1, .budgetMs = 1000, .statementTimeout = std::chrono::milliseconds(300)}));
    QVERIFY(lockEventsOnTheStandby());
    const QRegularExpression cancelled(
        QStringLiteral("canceling statement due to statement timeout"));

    // HTTP: PostgreSQL cancels the waiting standby statement after 300 ms.
    QTest::ignoreMessage(QtWarningMsg, cancelled);
    const Reply http = query(channelFilter(kChannel, 5));
    QCOMPARE(http.status, 503);
    QCOMPARE(http.body, QByteArray("{\"error\":\"query timed out\"}"));

    // WebSocket history: CLOSED with the same reason, never EOSE.
    auto subscriber = subscribe();
    QVERIFY(subscriber);
    auto &client = *subscriber;
    QTest::ignoreMessage(QtWarningMsg, cancelled);
    client.sendReq("slow", {historyFilter()});
    const auto closed = client.waitForClosed("slow", 10000);
    QVERIFY2(closed.is_array(), "no CLOSED for a timed-out history read");
    QCOMPARE(closed[2].get<std::string>(), std::string("error: query timed out"));

    // Neither read was re-run on the writer (it would run the same slow statement).
    QCOMPARE(m_harness->replicas().metrics().total(RouteDecisionLabel::Writer), 0u);
    QCOMPARE(m_harness->decisions(ReadPath::BridgeQuery, RouteDecisionLabel::Replica,
                                  RouteReason::StatementCancelled),
             1u);
    QCOMPARE(m_harness->decisions(ReadPath::ReqHistorical, RouteDecisionLabel::Replica,
                                  RouteReason::StatementCancelled),
             1u);

    // Once the primary lets go, the standby answers again.
    m_blocker.reset();
    m_harness->beatAndReplay();
    const Reply again = query(channelFilter(kChannel, 5));
    QCOMPARE(again.status, 200);
    QVERIFY2(again.route.startsWith("replica; reason=fresh; replica=replica-0; age_ms="),
             again.route.constData());
}

void TestRoutingPgFailures::recoveryConflictRerunsOnTheWriter()
{
    // The read below waits for a lock the startup process holds while the startup process waits
    // for the read: after deadlock_timeout the standby's own deadlock detector would cancel it
    // ("deadlock detected", 40P01) before replay does. Raised, replay's cancel after
    // max_standby_streaming_delay (1 s) comes first: the lock conflict with recovery (40001).
    {
        auto standby = openPg(relay::test::PgTestCluster::cluster()->standby);
        QVERIFY(standby);
        QVERIFY(standby->execOk("ALTER SYSTEM SET deadlock_timeout = '60s'"));
        QVERIFY(standby->execOk("SELECT pg_reload_conf()"));
        QTRY_COMPARE_WITH_TIMEOUT(
            std::string(standby->exec("SELECT current_setting('deadlock_timeout')").text(0, 0)),
            std::string("1min"), 10000);
    }
    // A statement timeout far beyond max_standby_streaming_delay: only the conflict can end it.
    QVERIFY(start({.replicas = 1, .budgetMs = 1000, .statementTimeout = std::chrono::seconds(30)}));
    QVERIFY(lockEventsOnTheStandby());
    const auto urls = *m_harness->pgUrls;
    auto standby = openPg(urls.standby);
    auto primary = openPg(urls.writer);
    QVERIFY(standby && primary);
    // The standby cancels the statement (ERROR 40001) or, when replay catches the backend between
    // statements, terminates the session (FATAL, which libpq may report only as the server having
    // closed the connection). Both are replica errors and must re-run on the writer.
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(QStringLiteral(
                             "conflict with recovery|server closed the connection unexpectedly")));

    QueryResult result;
    Background reader([&] { result = m_harness->read(channelFilter(kChannel, 5)); },
                      [&] { m_blocker.reset(); });
    // The read waits on the standby for the replayed lock, inside its proved snapshot.
    QTRY_COMPARE_WITH_TIMEOUT(waitingOnALock(*standby), 1, 20000);
    // Replay now needs ACCESS EXCLUSIVE on replica_heartbeat, which that read holds.
    QVERIFY(primary->execOk("BEGIN"));
    QVERIFY(primary->execOk("LOCK TABLE replica_heartbeat IN ACCESS EXCLUSIVE MODE"));
    QVERIFY(primary->execOk("COMMIT"));
    // The standby cancels the read; its re-run on the writer then waits for the blocker there.
    QTRY_COMPARE_WITH_TIMEOUT(waitingOnALock(*primary), 1, 20000);
    reader.join();

    QCOMPARE(result.status, QueryResult::Status::Ok);
    QCOMPARE(result.route, std::string("writer"));
    QCOMPARE(result.routeReason, std::string("replica_error"));
    QVERIFY(RoutingHarness::contains(result, m_posted));
    QCOMPARE(m_harness->decisions(ReadPath::BridgeQuery, RouteDecisionLabel::Writer,
                                  RouteReason::ReplicaError),
             1u);
    store::PgResult conflicts = standby->exec(
        "SELECT confl_lock FROM pg_stat_database_conflicts WHERE datname = current_database()");
    QVERIFY(conflicts.ok());
    qInfo("standby lock conflicts so far: %lld", static_cast<long long>(conflicts.int64(0, 0)));
}

void TestRoutingPgFailures::stoppedStandbyFailsClosedToTheWriter()
{
    QVERIFY(start({.replicas = 1, .budgetMs = 1000}));
    QVERIFY(cluster(QStringLiteral("stop-standby")));

    // The pooled standby connection finds the server gone: the writer answers.
    Reply reply = query(channelFilter(kChannel, 5));
    expectWriterAnswer(reply, "replica_error");
    if (QTest::currentTestFailed())
        return;

    // Subscription history is answered too (EOSE with the row), not refused.
    auto subscriber = subscribe();
    QVERIFY(subscriber);
    auto &client = *subscriber;
    client.sendReq("history", {historyFilter()});
    const auto event = client.waitForType("EVENT", 10000);
    QVERIFY2(event.is_array(), "no EVENT from the writer");
    QCOMPARE(event[2]["id"].get<std::string>(), m_posted);
    const auto eose = client.waitForType("EOSE", 10000);
    QVERIFY(eose.is_array());

    // Once the relay asked, the standby is unreachable and unproved: still the writer.
    static_cast<replication::PgStandbySet &>(m_harness->replicas()).refresh();
    reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.status, 200);
    QVERIFY2(reply.route.startsWith("writer;"), reply.route.constData());
    const auto state = nlohmann::json::parse(admin("GET", "/admin/state").body.toStdString());
    QCOMPARE(state["replicas"][0]["reachable"].get<bool>(), false);
    QCOMPARE(admin("POST", "/admin/replicas/0/pause").status / 100, 5);

    // Started again, it serves again (its connections reconnect after their back-off).
    QVERIFY(cluster(QStringLiteral("start-standby")));
    m_harness->beatAndReplay();
    QTRY_VERIFY_WITH_TIMEOUT(query(channelFilter(kChannel, 5))
                                 .route.startsWith("replica; reason=fresh; replica=replica-0;"),
                             10000);
}

void TestRoutingPgFailures::exhaustedReaderPoolIsBusy()
{
    QVERIFY(start({.replicas = 1, .budgetMs = 1000, .poolSize = 2}));
    // Both reader connections are taken, each inside its own standby snapshot.
    replication::ReadReplica::AcquireFailure failure {};
    auto first = m_harness->replica().acquireReader(std::chrono::milliseconds(150), failure);
    auto second = m_harness->replica().acquireReader(std::chrono::milliseconds(150), failure);
    QVERIFY(first && second);
    QCOMPARE(m_harness->replica().activeReaders(), 2);

    // A display read waits the bounded 150 ms, then the writer serves it.
    QElapsedTimer timer;
    timer.start();
    const Reply display = query(channelFilter(kChannel, 5));
    QVERIFY2(timer.elapsed() >= 150, QByteArray::number(timer.elapsed()).constData());
    expectWriterAnswer(display, "reader_acquire_timeout");
    if (QTest::currentTestFailed())
        return;

    // Subscription history is refused as retryable instead of moving onto the writer.
    auto subscriber = subscribe();
    QVERIFY(subscriber);
    auto &client = *subscriber;
    const std::string filter = historyFilter();
    timer.restart();
    client.sendReq("busy", {filter});
    const auto busy = client.waitForClosed("busy", 10000);
    QVERIFY2(timer.elapsed() >= 150, QByteArray::number(timer.elapsed()).constData());
    QVERIFY2(busy.is_array(), "no CLOSED for a refused backfill");
    QCOMPARE(busy[2].get<std::string>(),
             std::string("error: retryable: read replicas are busy, try again shortly"));
    QCOMPARE(m_harness->decisions(ReadPath::ReqHistorical, RouteDecisionLabel::Rejected,
                                  RouteReason::ReaderAcquireTimeout),
             1u);

    // One connection back, and the next subscription is answered from the standby.
    first.reset();
    client.sendReq("fine", {filter});
    const auto eose = client.waitForType("EOSE", 10000);
    QVERIFY(eose.is_array());
    QCOMPARE(eose[1].get<std::string>(), std::string("fine"));
    QCOMPARE(m_harness->decisions(ReadPath::ReqHistorical, RouteDecisionLabel::Replica,
                                  RouteReason::Fresh),
             1u);
}

QTEST_GUILESS_MAIN(TestRoutingPgFailures)
#include "test_routing_pg_failures.moc"
