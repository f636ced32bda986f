// NIP-98 `u` and the NIP-42 `relay` tag name the tenant host the request was addressed to
// (docs/buzz-protocol.md §Communities), with its host normalisation; and a NIP-98 token
// cannot be replayed at any moment of its validity window.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"
#include "net/nostr/Nip98.h"

#include <QtTest>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

const QByteArray kQueryBody = R"([{"kinds":[1]}])";

QByteArray headerFor(const TestIdentity &who, const std::string &url, std::int64_t at)
{
    return QByteArray::fromStdString(nostr::nip98::buildAuthorizationHeader(
        who.key, url, "POST", std::string_view(kQueryBody.constData()), at));
}

RelayTestFixture::Options twoCommunities()
{
    RelayTestFixture::Options options;
    options.communities = {{"second.example", "second"}};
    return options;
}

} // namespace

class TestServerTenantAuth : public QObject
{
    Q_OBJECT
private slots:
    void nip98NamesTheTenantHost();
    void nip98TokenForOneHostFailsOnAnother();
    void nip98HostIsNormalised_data();
    void nip98HostIsNormalised();
    void nip98SchemeFollowsTheRelayUrl();
    void nip42RelayTagNamesTheTenantHost();
    void replayRefusedForTheWholeWindow();
};

void TestServerTenantAuth::nip98NamesTheTenantHost()
{
    RelayTestFixture relay(twoCommunities());
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    http.setHostHeader("second.example");
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {},
                                 headerFor(alice, "http://second.example/query", relay.now()));
    QVERIFY2(reply.status == 200, reply.body.constData());
    // The note lands in the second community, not the default one.
    QCOMPARE(http.postEvent(alice.sign(1, relay.now(), {}, "on second")).status, 200);
    HttpTestClient local(relay, &alice.key);
    QCOMPARE(local.query(R"([{"kinds":[1]}])").json().size(), std::size_t(0));
    QCOMPARE(http.query(R"([{"kinds":[1]}])").json().size(), std::size_t(1));
}

void TestServerTenantAuth::nip98TokenForOneHostFailsOnAnother()
{
    RelayTestFixture relay(twoCommunities());
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const std::string local = "http://127.0.0.1:" + std::to_string(relay.port()) + "/query";
    // Made for the loopback host, presented to second.example.
    http.setHostHeader("second.example");
    const auto reply =
        http.post(QStringLiteral("/query"), kQueryBody, {}, headerFor(alice, local, relay.now()));
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(),
             "NIP-98: NIP-98 HTTP Auth verification failed: URL mismatch: event has `" + local
                 + "`, expected `http://second.example/query`");
    // And the other way round.
    http.setHostHeader({});
    const auto back = http.post(QStringLiteral("/query"), kQueryBody, {},
                                headerFor(alice, "http://second.example/query", relay.now()));
    QCOMPARE(back.status, 401);
}

void TestServerTenantAuth::nip98HostIsNormalised_data()
{
    QTest::addColumn<QByteArray>("hostHeader");
    QTest::addColumn<QString>("signedUrl");
    QTest::newRow("upper case, default port, trailing dot")
        << QByteArray("SECOND.Example.:80") << QStringLiteral("http://second.example/query");
    QTest::newRow("signed in upper case")
        << QByteArray("second.example") << QStringLiteral("HTTP://SECOND.EXAMPLE/query");
    QTest::newRow("port 443 stripped")
        << QByteArray("second.example:443") << QStringLiteral("http://second.example/query");
    QTest::newRow("localhost folds to 127.0.0.1, port kept")
        << QByteArray("localhost:%PORT%") << QStringLiteral("http://127.0.0.1:%PORT%/query");
    QTest::newRow("127.0.0.0/8 folds too")
        << QByteArray("127.8.9.10:%PORT%") << QStringLiteral("http://localhost:%PORT%/query");
    // The signed URL spelled the ways the Host header may be: both sides normalise alike.
    QTest::newRow("signed with a trailing dot and the default port")
        << QByteArray("second.example") << QStringLiteral("http://second.example.:80/query");
    QTest::newRow("signed with a trailing dot")
        << QByteArray("second.example") << QStringLiteral("http://second.example./query");
    QTest::newRow("signed with the default port")
        << QByteArray("second.example") << QStringLiteral("http://second.example:80/query");
    QTest::newRow("both spelled alike")
        << QByteArray("second.example.:80") << QStringLiteral("http://second.example.:80/query");
    QTest::newRow("loopback with a trailing dot")
        << QByteArray("127.0.0.1:%PORT%") << QStringLiteral("http://localhost.:%PORT%/query");
}

void TestServerTenantAuth::nip98HostIsNormalised()
{
    QFETCH(QByteArray, hostHeader);
    QFETCH(QString, signedUrl);
    RelayTestFixture relay(twoCommunities());
    TestIdentity alice;
    const QByteArray port = QByteArray::number(relay.port());
    hostHeader.replace("%PORT%", port);
    signedUrl.replace(QStringLiteral("%PORT%"), QString::fromLatin1(port));
    HttpTestClient http(relay, &alice.key);
    http.setHostHeader(hostHeader);
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {},
                                 headerFor(alice, signedUrl.toStdString(), relay.now()));
    QVERIFY2(reply.status == 200, reply.body.constData());
}

void TestServerTenantAuth::nip98SchemeFollowsTheRelayUrl()
{
    // Behind a TLS proxy: the relay URL is wss://, clients sign https:// + the host they address.
    RelayTestFixture::Options options = twoCommunities();
    options.relayUrl = "wss://relay.example.com";
    RelayTestFixture relay(options);
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    http.setHostHeader("second.example");
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {},
                       headerFor(alice, "https://second.example/query", relay.now()))
                 .status,
             200);
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {},
                       headerFor(alice, "http://second.example/query", relay.now()))
                 .status,
             401);
    // The deployment URL's host is not a wildcard for other hosts.
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {},
                       headerFor(alice, "https://relay.example.com/query", relay.now()))
                 .status,
             401);
}

void TestServerTenantAuth::nip42RelayTagNamesTheTenantHost()
{
    // The deployment URL names another host than the one this client connects to (127.0.0.1).
    RelayTestFixture::Options options;
    options.relayUrl = "ws://relay.example.com";
    RelayTestFixture relay(options);
    TestIdentity alice;
    const std::string addressed = "ws://127.0.0.1:" + std::to_string(relay.port());
    const QUrl url(QString::fromStdString(addressed));

    WsTestClient deploymentHost(url);
    QVERIFY(deploymentHost.connectAndWaitChallenge());
    const auto refused =
        deploymentHost.authenticate(alice.key, "ws://relay.example.com", relay.now());
    QVERIFY(refused[2] == false);
    QVERIFY(refused[3] == "auth-required: verification failed");

    WsTestClient tenantHost(url);
    QVERIFY(tenantHost.connectAndWaitChallenge());
    const auto accepted = tenantHost.authenticate(alice.key, addressed, relay.now());
    QVERIFY2(accepted[2] == true, accepted.dump().c_str());

    // Loopback spellings fold together, like the Host header does.
    WsTestClient localhost(url);
    QVERIFY(localhost.connectAndWaitChallenge());
    QVERIFY(localhost.authenticate(alice.key, "ws://localhost:" + std::to_string(relay.port()),
                                   relay.now())[2]
            == true);
}

void TestServerTenantAuth::replayRefusedForTheWholeWindow()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    // Signed 60 s ahead: inside the ±60 s window from now until now + 120 s inclusive.
    const auto header =
        http.authorizationFor(QStringLiteral("/query"), kQueryBody, relay.now() + 60);
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).status, 200);
    for (const int step : {60, 59, 1}) {
        relay.advance(step); // +60, +119, +120: still inside the window
        const auto replay = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
        QCOMPARE(replay.status, 401);
        QCOMPARE(replay.error(), std::string("NIP-98: replay detected"));
    }
    relay.advance(1); // +121: outside the window, refused as such
    const auto late = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
    QCOMPARE(late.status, 401);
    QVERIFY2(late.error().find("outside ±60s window") != std::string::npos, late.body.constData());
}

QTEST_GUILESS_MAIN(TestServerTenantAuth)
#include "test_server_tenant_auth.moc"
