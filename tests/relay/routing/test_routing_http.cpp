// Routing seen from the wire: the X-Buzz-Read-Route header on /query and /count, the 503 bodies
// of the failure rules, /metrics, and the loopback + bearer admin API driving the faults.

#include "test_routing_support.h"

#include "RelayTestFixtureWsClient.h"
#include "relay/server/RelayServer.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>

#include <limits>
#include <map>

using namespace routingtest;

namespace {
const std::string kChannel = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d04";
const QByteArray kToken = "admin-secret";

struct Reply
{
    int status = 0;
    QByteArray body;
    QByteArray route;
    QByteArray retryAfter;
};
} // namespace

class TestRoutingHttp : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void routeHeaderNamesThePool();
    void failureRulesOnTheWire();
    void wsHistoryFailuresCloseTheSubscription();
    void wsHistoryEoseNamesTheRoute();
    void subscriptionBehindALaggingReplicaConverges();
    void adminApiNeedsTheBearerToken();
    void adminApiPausesAndShiftsTheClock();
    void adminClockOffsetOutsideAYearIs400();
    void metricsExposeDecisionsAndPools();
    void adminApiAbsentWithoutToken();

private:
    Reply send(const QByteArray &method, const QString &path, const QByteArray &body = {},
               bool admin = false, bool withToken = true);
    Reply query(const std::string &filters, const QString &path = QStringLiteral("/query"))
    {
        return send("POST", path, QByteArray::fromStdString(filters));
    }

    std::unique_ptr<RoutingHarness> m_harness;
    std::unique_ptr<RelayServer> m_server;
    QNetworkAccessManager m_network;
};

void TestRoutingHttp::init()
{
    m_harness = std::make_unique<RoutingHarness>(HarnessOptions {.replicas = 1, .budgetMs = 1000});
    RelayServer::Options options;
    options.acceptDevPubkeyHeader = true;
    options.adminToken = kToken.toStdString();
    auto clock = m_harness->clock;
    options.clock = [clock] {
        return clock->nowSec();
    };
    m_server = std::make_unique<RelayServer>(*m_harness->engine, options);
    QVERIFY(m_server->start(QStringLiteral("127.0.0.1:0")));
    m_harness->createChannel(kChannel);
    m_harness->post(kChannel, m_harness->nowSec() - 10, "hello");
    m_harness->beatAndReplay();
}

void TestRoutingHttp::cleanup()
{
    if (m_server)
        m_server->stop();
    m_server.reset();
    m_harness.reset();
}

Reply TestRoutingHttp::send(const QByteArray &method, const QString &path, const QByteArray &body,
                            bool admin, bool withToken)
{
    QNetworkRequest request(QUrl(m_server->httpUrl() + path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    if (admin && withToken)
        request.setRawHeader("Authorization", "Bearer " + kToken);
    if (!admin)
        request.setRawHeader("X-Pubkey", QByteArray::fromStdString(m_harness->owner.pubkey()));
    QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(10000);
    Reply out;
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    out.route = reply->rawHeader("X-Buzz-Read-Route");
    out.retryAfter = reply->rawHeader("Retry-After");
    reply->deleteLater();
    return out;
}

// "replica; reason=fresh; replica=replica-0; age_ms=N" → N, or -1 when the header is not that.
qint64 replicaDataAgeMs(const QByteArray &route)
{
    const QByteArray prefix = "replica; reason=fresh; replica=replica-0; age_ms=";
    bool ok = false;
    const qint64 age = route.startsWith(prefix) ? route.mid(prefix.size()).toLongLong(&ok) : -1;
    return ok ? age : -1;
}

void TestRoutingHttp::routeHeaderNamesThePool()
{
    // A replica's answer names the replica and how old its proved data is: the time since the
    // writer committed the heartbeat it replayed (relay/README.md "Read routing").
    m_harness->advanceMs(400);
    Reply reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.status, 200);
    const qint64 age = replicaDataAgeMs(reply.route);
    QVERIFY2(age >= 400 && age <= 1000, reply.route.constData());
    reply = query("[{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"consistency\":\"strong\"}]");
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.route, QByteArray("writer; reason=strong"));
    reply = query(channelFilter(kChannel, 5), QStringLiteral("/count"));
    QCOMPARE(reply.status, 200);
    QVERIFY2(replicaDataAgeMs(reply.route) >= 400, reply.route.constData());
    reply = query("[{\"kinds\":[9],\"consistency\":\"eventual\"}]");
    QCOMPARE(reply.status, 400);
    m_harness->advanceMs(1001);
    reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.route, QByteArray("writer; reason=stale"));
}

void TestRoutingHttp::failureRulesOnTheWire()
{
    Reply admin =
        send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"timeout\",\"count\":1}", true);
    QCOMPARE(admin.status, 200);
    Reply reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.status, 503);
    QCOMPARE(reply.body, QByteArray("{\"error\":\"query timed out\"}"));

    send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"error\",\"count\":1}", true);
    reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.route, QByteArray("writer; reason=replica_error"));

    send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"busy\",\"count\":1}", true);
    reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.route, QByteArray("writer; reason=reader_acquire_timeout"));

    admin = send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"melt\",\"count\":1}", true);
    QCOMPARE(admin.status, 400);
    admin = send("POST", "/admin/faults", "{\"replica\":7,\"kind\":\"busy\",\"count\":1}", true);
    QCOMPARE(admin.status, 404);
}

void TestRoutingHttp::wsHistoryFailuresCloseTheSubscription()
{
    // Over WebSocket a failed history read ends the subscription with CLOSED, never EOSE: a
    // statement timeout is surfaced as is (not retried on the writer), and a saturated reader
    // pool refuses subscription backfill as retryable instead of moving the bulk read onto the
    // writer (the HTTP bridge falls back instead; see failureRulesOnTheWire).
    relay::test::WsTestClient client(QUrl(m_server->url()));
    QVERIFY(client.connectAndAuthenticate(m_harness->owner.key, m_server->url().toStdString(),
                                          m_harness->nowSec()));
    const std::string filter = "{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"limit\":5}";

    QCOMPARE(send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"timeout\",\"count\":1}", true)
                 .status,
             200);
    client.sendReq("timeout", {filter});
    const auto timedOut = client.waitForClosed("timeout");
    QVERIFY2(timedOut.is_array(), "no CLOSED for a timed-out history read");
    QCOMPARE(timedOut[2].get<std::string>(), std::string("error: query timed out"));

    QCOMPARE(
        send("POST", "/admin/faults", "{\"replica\":0,\"kind\":\"busy\",\"count\":1}", true).status,
        200);
    client.sendReq("busy", {filter});
    const auto busy = client.waitForClosed("busy");
    QVERIFY2(busy.is_array(), "no CLOSED for a refused backfill");
    QCOMPARE(busy[2].get<std::string>(),
             std::string("error: retryable: read replicas are busy, try again shortly"));

    // Neither failure left anything behind: the next subscription is answered normally.
    client.sendReq("fine", {filter});
    const auto eose = client.waitForType("EOSE");
    QVERIFY(eose.is_array());
    QCOMPARE(eose[1].get<std::string>(), std::string("fine"));
}

void TestRoutingHttp::wsHistoryEoseNamesTheRoute()
{
    // Our extension of EOSE (relay/README.md "Read routing"): a third element tells how the
    // history was served, as X-Buzz-Read-Route does for HTTP, so a client can show it per REQ.
    relay::test::WsTestClient client(QUrl(m_server->url()));
    QVERIFY(client.connectAndAuthenticate(m_harness->owner.key, m_server->url().toStdString(),
                                          m_harness->nowSec()));
    m_harness->advanceMs(250);
    client.sendReq("routed", {"{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"limit\":5}"});
    const auto routed = client.waitForType("EOSE");
    QVERIFY(routed.is_array() && routed.size() == 3);
    QCOMPARE(routed[1].get<std::string>(), std::string("routed"));
    const QByteArray route = QByteArray::fromStdString(routed[2]["read_route"].get<std::string>());
    const qint64 age = replicaDataAgeMs(route);
    QVERIFY2(age >= 250 && age <= 1000, route.constData());

    client.sendReq(
        "strong",
        {"{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"limit\":5,\"consistency\":\"strong\"}"});
    const auto strong = client.waitFor(
        [](const nlohmann::json &f) { return f[0] == "EOSE" && f[1] == "strong"; }, 10000);
    QVERIFY(strong.is_array() && strong.size() == 3);
    QCOMPARE(strong[2]["read_route"].get<std::string>(), std::string("writer; reason=strong"));
}

void TestRoutingHttp::subscriptionBehindALaggingReplicaConverges()
{
    // A 3,000 ms budget, the replica 2,500 ms behind: r2 saved, and within 300 ms the app opens
    // its canvas subscription (head: since + limit 1) and a plain history one. r2 committed before
    // either went live, so no live delivery brings it: each must receive it within the budget,
    // once (relay/README.md "Read routing"). The relay clock is the test's; on PostgreSQL the lag
    // is the standby's recovery_min_apply_delay on the server's real clock.
    constexpr std::int64_t kBudgetMs = 3000;
    constexpr std::int64_t kLagMs = 2500;
    const bool postgres = m_harness->onPostgres();
    relay::test::WsTestClient client(QUrl(m_server->url()));
    QVERIFY(client.connectAndAuthenticate(m_harness->owner.key, m_server->url().toStdString(),
                                          m_harness->nowSec()));
    QCOMPARE(send("POST", "/admin/budget", "{\"ms\":" + QByteArray::number(kBudgetMs) + "}", true)
                 .status,
             200);
    const std::int64_t since = m_harness->nowSec() - 60;
    const std::string r1 = m_harness->saveCanvas(kChannel, m_harness->nowSec() - 5, "r1");
    QVERIFY(!r1.empty());
    m_harness->beatAndReplay();
    QCOMPARE(
        send("POST", "/admin/replicas/0/lag", "{\"ms\":" + QByteArray::number(kLagMs) + "}", true)
            .status,
        200);
    // Steady state: the replica holds a heartbeat younger than the budget, but not the newest
    // commits. SQLite: beats every 500 ms, each replayed once 2.5 s old. PostgreSQL: one beat,
    // replayed once the delay has passed.
    if (postgres) {
        m_harness->replicas().heartbeat();
        QCOMPARE(send("POST", "/admin/wait-caught-up", "{\"timeout_ms\":15000}", true).status, 200);
    } else {
        for (int beat = 0; beat < 6; ++beat) {
            m_harness->advanceMs(500);
            m_harness->beatAndReplay();
        }
    }

    const std::int64_t savedAtMs = m_harness->clock->nowMs();
    const std::string r2 = m_harness->saveCanvas(kChannel, m_harness->nowSec(), "r2", r1);
    QVERIFY(!r2.empty());
    m_harness->advanceMs(200);
    const std::string head = "{\"kinds\":[40100],\"#h\":[\"" + kChannel
        + "\"],\"since\":" + std::to_string(since) + ",\"limit\":1}";
    client.sendReq("head", {head});
    client.sendReq("plain", {"{\"kinds\":[40100],\"#h\":[\"" + kChannel + "\"]}"});

    // Every frame of both subscriptions, and the relay time at which r2 first reached each.
    std::map<std::string, int> r2Deliveries;
    std::map<std::string, std::int64_t> r2ArrivedAtMs;
    const auto collect = [&](int timeoutMs) {
        for (;;) {
            const auto frame = client.waitFor(
                [](const nlohmann::json &f) {
                    return f.is_array() && f.size() >= 3 && f[0] == "EVENT"
                        && (f[1] == "head" || f[1] == "plain");
                },
                timeoutMs);
            if (frame.is_null())
                return;
            const std::string id = frame[1].get<std::string>();
            if (frame[2]["id"] == r2 && r2Deliveries[id]++ == 0)
                r2ArrivedAtMs[id] = m_harness->clock->nowMs();
            timeoutMs = 0;
        }
    };
    QVERIFY(client
                .waitFor([](const nlohmann::json &f) { return f[0] == "EOSE" && f[1] == "head"; },
                         10000)
                .is_array());
    QVERIFY(client
                .waitFor([](const nlohmann::json &f) { return f[0] == "EOSE" && f[1] == "plain"; },
                         10000)
                .is_array());
    // Time runs on with heartbeats every 500 ms until the budget has passed since the save.
    while (m_harness->clock->nowMs() < savedAtMs + kBudgetMs) {
        collect(20);
        m_harness->advanceMs(100);
        if ((m_harness->clock->nowMs() - savedAtMs) % 500 == 0)
            m_harness->beatAndReplay();
    }
    collect(20);
    for (const char *id : {"head", "plain"}) {
        QVERIFY2(r2Deliveries[id] == 1,
                 qPrintable(QStringLiteral("%1: r2 delivered %2 times within the budget")
                                .arg(id)
                                .arg(r2Deliveries[id])));
        QVERIFY(r2ArrivedAtMs[id] - savedAtMs <= kBudgetMs);
    }

    // The replica catches up, and a later revision arrives live: still one r2 each.
    QCOMPARE(send("POST", "/admin/replicas/0/lag", "{\"ms\":0}", true).status, 200);
    m_harness->beatAndReplay();
    QCOMPARE(send("POST", "/admin/wait-caught-up", "{\"timeout_ms\":15000}", true).status, 200);
    const std::string r3 = m_harness->saveCanvas(kChannel, m_harness->nowSec() + 1, "r3", r2);
    QVERIFY(!r3.empty());
    std::map<std::string, int> r3Deliveries;
    for (int received = 0; received < 2;) {
        const auto frame = client.waitFor(
            [](const nlohmann::json &f) {
                return f.is_array() && f.size() >= 3 && f[0] == "EVENT"
                    && (f[1] == "head" || f[1] == "plain");
            },
            10000);
        QVERIFY2(frame.is_array(), "r3 did not arrive live on both subscriptions");
        const std::string id = frame[1].get<std::string>();
        if (frame[2]["id"] == r2)
            ++r2Deliveries[id];
        if (frame[2]["id"] == r3) {
            ++r3Deliveries[id];
            ++received;
        }
    }
    QCOMPARE(r2Deliveries["head"], 1);
    QCOMPARE(r2Deliveries["plain"], 1);
    QCOMPARE(r3Deliveries["head"], 1);
    QCOMPARE(r3Deliveries["plain"], 1);
}

void TestRoutingHttp::adminApiNeedsTheBearerToken()
{
    QCOMPARE(send("GET", "/admin/state", {}, true, false).status, 401);
    const Reply state = send("GET", "/admin/state", {}, true);
    QCOMPARE(state.status, 200);
    const auto json = nlohmann::json::parse(state.body.toStdString());
    QCOMPARE(json["budget_ms"].get<int>(), 1000);
    QCOMPARE(json["replicas"].size(), 1u);
    QCOMPARE(json["replicas"][0]["applied_lsn"].get<std::int64_t>(),
             json["writer"]["lsn"].get<std::int64_t>());
    QCOMPARE(json["replicas"][0]["proof"].get<std::string>(), std::string("proved"));
}

void TestRoutingHttp::adminClockOffsetOutsideAYearIs400()
{
    const std::int64_t year = 366LL * 24 * 3600 * 1000;
    for (const std::int64_t offset :
         {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(),
          year + 1, -year - 1}) {
        const Reply refused =
            send("POST", "/admin/clock",
                 QByteArray("{\"offset_ms\":") + QByteArray::number(qint64(offset)) + "}", true);
        QCOMPARE(refused.status, 400);
        QVERIFY2(refused.body.contains("offset_ms must be between"), refused.body.constData());
    }
    // The relay's clock did not move, and still works.
    auto state = nlohmann::json::parse(send("GET", "/admin/state", {}, true).body.toStdString());
    QCOMPARE(state["clock_offset_ms"].get<std::int64_t>(), std::int64_t(0));
    QCOMPARE(send("POST", "/admin/clock",
                  "{\"offset_ms\":" + QByteArray::number(qint64(-year)) + "}", true)
                 .status,
             200);
    state = nlohmann::json::parse(send("GET", "/admin/state", {}, true).body.toStdString());
    QCOMPARE(state["clock_offset_ms"].get<std::int64_t>(), -year);
}

void TestRoutingHttp::adminApiPausesAndShiftsTheClock()
{
    QCOMPARE(send("POST", "/admin/replicas/0/pause", {}, true).status, 200);
    const std::string fresh = m_harness->post(kChannel, m_harness->nowSec(), "fresh");
    m_harness->beatAndReplay(); // paused: nothing replayed
    QCOMPARE(send("POST", "/admin/clock", "{\"offset_ms\":5000}", true).status, 200);
    Reply reply = query(channelFilter(kChannel, 5));
    QCOMPARE(reply.route, QByteArray("writer; reason=stale"));
    QVERIFY(reply.body.contains(QByteArray::fromStdString(fresh)));

    // A SQLite replica's lag runs on the relay clock; the standby's is recovery_min_apply_delay on
    // the server's real clock, so there it is long enough that the check right after the heartbeat
    // cannot be outrun on a loaded machine, and catching up is a real wait.
    const bool postgres = m_harness->onPostgres();
    const int lagMs = postgres ? 2000 : 250;
    QCOMPARE(send("POST", "/admin/replicas/0/lag", "{\"ms\":-1}", true).status, 400);
    QCOMPARE(
        send("POST", "/admin/replicas/0/lag", "{\"ms\":" + QByteArray::number(lagMs) + "}", true)
            .status,
        200);
    QCOMPARE(send("POST", "/admin/replicas/0/resume", {}, true).status, 200);
    m_harness->replicas().heartbeat();
    m_harness->replay(); // nothing is lagMs old yet
    QCOMPARE(send("POST", "/admin/wait-caught-up", "{\"timeout_ms\":0}", true).status, 504);
    m_harness->advanceMs(300);
    m_harness->replay();
    const Reply caughtUp = send("POST", "/admin/wait-caught-up",
                                postgres ? "{\"timeout_ms\":8000}" : "{\"timeout_ms\":0}", true);
    QCOMPARE(caughtUp.status, 200);
    reply = query(channelFilter(kChannel, 5));
    QVERIFY2(replicaDataAgeMs(reply.route) >= 0, reply.route.constData());
    QVERIFY(reply.body.contains(QByteArray::fromStdString(fresh)));
    const auto state =
        nlohmann::json::parse(send("GET", "/admin/state", {}, true).body.toStdString());
    QCOMPARE(state["clock_offset_ms"].get<int>(), 5000);
    QCOMPARE(state["replicas"][0]["lag_ms"].get<int>(), lagMs);
}

void TestRoutingHttp::metricsExposeDecisionsAndPools()
{
    query(channelFilter(kChannel, 5));
    const Reply metrics = send("GET", "/metrics");
    QCOMPARE(metrics.status, 200);
    QVERIFY(metrics.body.contains("buzz_db_route_decision_total{path=\"bridge_query\",decision="
                                  "\"replica\",reason=\"fresh\"} 1"));
    QVERIFY(metrics.body.contains("buzz_db_read_pool_max{pool=\"replica-0\"} 4"));
}

void TestRoutingHttp::adminApiAbsentWithoutToken()
{
    m_server->stop();
    RelayServer::Options options;
    options.acceptDevPubkeyHeader = true;
    m_server = std::make_unique<RelayServer>(*m_harness->engine, options);
    QVERIFY(m_server->start(QStringLiteral("127.0.0.1:0")));
    QCOMPARE(send("GET", "/admin/state", {}, true).status, 404);
}

QTEST_GUILESS_MAIN(TestRoutingHttp)
#include "test_routing_http.moc"
