// The optional relay-membership gate (docs/buzz-protocol.md §Relay membership) over real
// sockets: the bridge's exact 403 body after NIP-98 and the replay check, the WebSocket AUTH
// refusal that fails the connection, the relay's own key always passing, NIP-11's `43`, and
// nothing changing when the gate is off.

#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QtTest>

#include <memory>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

const QByteArray kMembershipBody =
    R"({"error":"relay_membership_required","message":"You must be a relay member to access this relay"})";
const QByteArray kFiltersBody = R"([{"kinds":[1]}])";

RelayTestFixture::Options gatedOptions(const std::vector<std::string> &members,
                                       bool devPubkeyHeader = false)
{
    RelayTestFixture::Options options;
    options.requireRelayMembership = true;
    options.relayMembers = members;
    options.devPubkeyHeader = devPubkeyHeader;
    return options;
}

// A body the route accepts from `who` (a fresh note for /events, a filter list otherwise).
QByteArray bodyFor(const QString &path, const TestIdentity &who, RelayTestFixture &relay)
{
    if (path == QLatin1String("/events"))
        return QByteArray::fromStdString(who.sign(1, relay.now(), {}, "hello").toJson());
    return kFiltersBody;
}

std::vector<int> supportedNips(const HttpTestResponse &reply)
{
    return reply.json()["supported_nips"].get<std::vector<int>>();
}

const std::vector<int> kAdvertisedNips = {1,  2,  9,  10, 11, 16, 17, 23,
                                          25, 29, 33, 38, 42, 45, 50, 98};

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");

// One HTTP exchange with a relay process; status 0 when no answer came.
std::pair<int, QByteArray> exchange(QNetworkAccessManager &network, quint16 port,
                                    const QString &path, const QByteArray &verb,
                                    const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const QByteArray &body = {})
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    std::unique_ptr<QNetworkReply> reply(network.sendCustomRequest(request, verb, body));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(10000))
        return {0, {}};
    return {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
}

} // namespace

class TestServerMembership : public QObject
{
    Q_OBJECT

private slots:
    // HTTP bridge
    void bridgeRefusesNonMember_data();
    void bridgeRefusesNonMember();
    void bridgeAdmitsMember_data();
    void bridgeAdmitsMember();
    void nip98FailureComesBeforeMembership();
    void replayCheckComesBeforeMembership();
    void devHeaderIsGated();
    void relayKeyIsAlwaysAMember();
    // WebSocket
    void wsAuthFromNonMemberFailsTheConnection();
    void wsAuthFromMember();
    void wsBadSignatureFromNonMemberIsAVerificationFailure();
    // Gate off
    void gateOffAdmitsEveryone();
    // NIP-11
    void nip11AdvertisesNip43OnlyWithTheGate();
    // The executable wires the options through
    void mockRelayProcessHonoursTheOptions();
};

void TestServerMembership::bridgeRefusesNonMember_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("events") << QStringLiteral("/events");
    QTest::newRow("query") << QStringLiteral("/query");
    QTest::newRow("count") << QStringLiteral("/count");
}

void TestServerMembership::bridgeRefusesNonMember()
{
    QFETCH(QString, path);
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    QVERIFY(relay.isListening());
    HttpTestClient http(relay, &bob.key);
    const auto reply = http.post(path, bodyFor(path, bob, relay));
    QCOMPARE(reply.status, 403);
    QCOMPARE(reply.body, kMembershipBody);
    // A refused event was never stored: the member sees no note from bob.
    HttpTestClient member(relay, &alice.key);
    const auto notes = member.count(R"([{"kinds":[1],"authors":[")" + bob.pubkey() + R"("]}])");
    QCOMPARE(notes.status, 200);
    QCOMPARE(notes.json()["count"], 0);
}

void TestServerMembership::bridgeAdmitsMember_data()
{
    bridgeRefusesNonMember_data();
}

void TestServerMembership::bridgeAdmitsMember()
{
    QFETCH(QString, path);
    TestIdentity alice;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    HttpTestClient http(relay, &alice.key);
    const auto reply = http.post(path, bodyFor(path, alice, relay));
    QCOMPARE(reply.status, 200);
    if (path == QLatin1String("/events"))
        QCOMPARE(reply.json()["accepted"], true);
}

void TestServerMembership::nip98FailureComesBeforeMembership()
{
    TestIdentity alice;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    HttpTestClient anonymous(relay);
    const auto missing = anonymous.query(kFiltersBody.toStdString());
    QCOMPARE(missing.status, 401);
    QCOMPARE(missing.error(), "missing Nostr auth");
    // A non-member whose header is stale gets the NIP-98 answer, not the membership one.
    TestIdentity bob;
    HttpTestClient http(relay, &bob.key);
    const QByteArray stale =
        http.authorizationFor(QStringLiteral("/query"), kFiltersBody, relay.now() - 61);
    const auto reply = http.post(QStringLiteral("/query"), kFiltersBody, {}, stale);
    QCOMPARE(reply.status, 401);
    QVERIFY2(reply.error().rfind("NIP-98: NIP-98 HTTP Auth verification failed: ", 0) == 0,
             reply.body.constData());
}

void TestServerMembership::replayCheckComesBeforeMembership()
{
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    HttpTestClient http(relay, &bob.key);
    const QByteArray header = http.authorizationFor(QStringLiteral("/query"), kFiltersBody);
    const auto first = http.post(QStringLiteral("/query"), kFiltersBody, {}, header);
    QCOMPARE(first.status, 403);
    QCOMPARE(first.body, kMembershipBody);
    // The refused request still spent its NIP-98 event: the replay check runs first.
    const auto again = http.post(QStringLiteral("/query"), kFiltersBody, {}, header);
    QCOMPARE(again.status, 401);
    QCOMPARE(again.body, QByteArray(R"({"error":"NIP-98: replay detected"})"));
}

void TestServerMembership::devHeaderIsGated()
{
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}, /*devPubkeyHeader=*/true));
    HttpTestClient http(relay);
    const auto refused = http.post(QStringLiteral("/count"), kFiltersBody,
                                   {{"X-Pubkey", QByteArray::fromStdString(bob.pubkey())}});
    QCOMPARE(refused.status, 403);
    QCOMPARE(refused.body, kMembershipBody);
    const auto admitted = http.post(QStringLiteral("/count"), kFiltersBody,
                                    {{"X-Pubkey", QByteArray::fromStdString(alice.pubkey())}});
    QCOMPARE(admitted.status, 200);
    QCOMPARE(admitted.body, QByteArray(R"({"count":0})"));
}

void TestServerMembership::relayKeyIsAlwaysAMember()
{
    // No members configured at all: only the relay's own identity passes.
    RelayTestFixture relay(gatedOptions({}, /*devPubkeyHeader=*/true));
    HttpTestClient http(relay);
    const auto reply = http.post(QStringLiteral("/query"), kFiltersBody,
                                 {{"X-Pubkey", QByteArray::fromStdString(relay.relayPublicKey())}});
    QCOMPARE(reply.status, 200);
    TestIdentity stranger;
    const auto refused = http.post(QStringLiteral("/query"), kFiltersBody,
                                   {{"X-Pubkey", QByteArray::fromStdString(stranger.pubkey())}});
    QCOMPARE(refused.status, 403);
}

void TestServerMembership::wsAuthFromNonMemberFailsTheConnection()
{
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    const auto auth =
        nostr::nip42::buildAuthEvent(bob.key, relay.relayUrl(), ws.challenge(), relay.now());
    ws.send("[\"AUTH\"," + auth.toJson() + "]");
    const auto ok = ws.waitForOk(auth.id);
    QCOMPARE(
        ok.dump(),
        nlohmann::json::array({"OK", auth.id, false, "restricted: not a relay member"}).dump());
    // Failed, not pending: a further AUTH (even a member's) is refused as already failed.
    const auto again = ws.authenticate(alice.key, relay.relayUrl(), relay.now());
    QVERIFY(again[2] == false);
    QVERIFY(again[3] == "auth-required: authentication already failed");
    ws.sendReq("s", {R"({"kinds":[1]})"});
    QVERIFY(ws.waitForClosed("s")[2] == "auth-required: not authenticated");
    // The member authenticates on a connection of her own.
    WsTestClient member(relay.wsUrl());
    QVERIFY(member.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
}

void TestServerMembership::wsAuthFromMember()
{
    TestIdentity alice;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    const auto ok = ws.authenticate(alice.key, relay.relayUrl(), relay.now());
    QCOMPARE(ok.size(), std::size_t(4));
    QVERIFY(ok[2] == true);
    QVERIFY(ok[3] == "");
    const auto published = ws.publish(alice.sign(1, relay.now(), {}, "member note"));
    QVERIFY2(published[2] == true, published.dump().c_str());
}

void TestServerMembership::wsBadSignatureFromNonMemberIsAVerificationFailure()
{
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture relay(gatedOptions({alice.pubkey()}));
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    auto auth =
        nostr::nip42::buildAuthEvent(bob.key, relay.relayUrl(), ws.challenge(), relay.now());
    auth.sig[5] = auth.sig[5] == '0' ? '1' : '0';
    ws.send("[\"AUTH\"," + auth.toJson() + "]");
    QVERIFY(ws.waitForOk(auth.id)[3] == "auth-required: verification failed");
}

void TestServerMembership::gateOffAdmitsEveryone()
{
    TestIdentity alice;
    TestIdentity bob;
    RelayTestFixture::Options options;
    options.relayMembers = {alice.pubkey()}; // a member list alone does not close the relay
    RelayTestFixture relay(options);
    HttpTestClient http(relay, &bob.key);
    for (const QString &path :
         {QStringLiteral("/events"), QStringLiteral("/query"), QStringLiteral("/count")}) {
        const auto reply = http.post(path, bodyFor(path, bob, relay));
        QVERIFY2(reply.status == 200, qPrintable(path + QLatin1Char(' ') + reply.body));
    }
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(bob.key, relay.relayUrl(), relay.now()));
}

void TestServerMembership::nip11AdvertisesNip43OnlyWithTheGate()
{
    const QList<QPair<QByteArray, QByteArray>> accept = {{"Accept", "application/nostr+json"}};
    RelayTestFixture open;
    HttpTestClient openHttp(open);
    const auto plain = openHttp.get(QStringLiteral("/info"), accept);
    QCOMPARE(plain.status, 200);
    QCOMPARE(supportedNips(plain), kAdvertisedNips);

    RelayTestFixture gated(gatedOptions({}));
    HttpTestClient gatedHttp(gated);
    std::vector<int> withGate = kAdvertisedNips;
    withGate.push_back(43);
    for (const QString &path : {QStringLiteral("/"), QStringLiteral("/info")}) {
        const auto reply = gatedHttp.get(path, accept);
        QCOMPARE(reply.status, 200);
        QCOMPARE(supportedNips(reply), withGate);
        QVERIFY(reply.json()["self"] == gated.relayPublicKey());
    }
}

void TestServerMembership::mockRelayProcessHonoursTheOptions()
{
    QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
    TestIdentity alice;
    TestIdentity bob;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("BUZZ_RELAY_MEMBERS"),
                       QString::fromStdString(alice.pubkey()));
    environment.insert(QStringLiteral("BUZZ_REQUIRE_RELAY_MEMBERSHIP"), QStringLiteral("true"));
    QProcess relay;
    const quint16 port = startRelayProcess(relay, {kRelayBinary},
                                           {QStringLiteral("--dev-pubkey-header")}, environment);
    QVERIFY2(port != 0, relay.readAllStandardError().constData());

    QNetworkAccessManager network;
    const auto [infoStatus, info] = exchange(network, port, QStringLiteral("/info"), "GET",
                                             {{"Accept", "application/nostr+json"}});
    QCOMPARE(infoStatus, 200);
    const auto nips = nlohmann::json::parse(info.toStdString())["supported_nips"];
    QVERIFY2(nips.back() == 43, info.constData());

    const auto [refusedStatus, refused] =
        exchange(network, port, QStringLiteral("/query"), "POST",
                 {{"X-Pubkey", QByteArray::fromStdString(bob.pubkey())}}, kFiltersBody);
    QCOMPARE(refusedStatus, 403);
    QCOMPARE(refused, kMembershipBody);
    const auto [admittedStatus, admitted] =
        exchange(network, port, QStringLiteral("/query"), "POST",
                 {{"X-Pubkey", QByteArray::fromStdString(alice.pubkey())}}, kFiltersBody);
    QCOMPARE(admittedStatus, 200);
    QCOMPARE(admitted, QByteArray("[]"));

    relay.terminate();
    QVERIFY(relay.waitForFinished(10000));
    QCOMPARE(relay.exitStatus(), QProcess::NormalExit);
}

QTEST_GUILESS_MAIN(TestServerMembership)

#include "test_server_membership.moc"
