// Two buzz-mock-relay processes on one PostgreSQL database, as production runs pods behind one
// load balancer (relay/README.md "Several processes on one PostgreSQL"): decisions a single
// process makes under its one writer must stay exact when two processes race. Each round sends
// two writes that only one may win, one through each process, in the same instant:
// - two conditional canvas saves (kind 40100, expected-revision = the current head): exactly one
//   is stored, the other gets the conflict a single process gives (docs/buzz-protocol.md
//   §Canvas CAS), so the canvas never forks;
// - two creations (kind 9007) of one channel id: exactly one is accepted, the other gets
//   "duplicate: channel already exists".
// And what the processes remember for the whole deployment: a presence status set through one is
// answered by the other; a NIP-98 token used through one is a replay through the other. Live
// events cross too (relay/README.md "Live fan-out across processes"): saved through one, they
// reach the other's subscriptions once, within the bound, under the same permission checks, also
// after the listener's connection was cut.
// PostgreSQL only (BUZZ_TEST_STORE=postgres, tests/support/pg.cmake); skipped without the pair.

#include "PgTestCluster.h"
#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip98.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgFanoutListener.h"

#include <QBuffer>
#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QtTest>

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace buzz;
using namespace buzz::relay::test;

namespace {

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");
constexpr int kCanvasRounds = 20;
constexpr int kCreateRounds = 10;
constexpr int kOkTimeoutMs = 30000; // a loaded machine; the answer itself is what is checked
constexpr int kLiveEvents = 200;
// The issue asks for 100 ms at the 99th percentile on an idle machine (the test prints what it
// measured); the assertion leaves room for a loaded one.
constexpr qint64 kLiveP99BoundMs = 1000;
// The one public host both processes serve, as behind a load balancer (--community).
const QByteArray kPublicHost = "relay.test";

struct HttpAnswer
{
    int status = 0;
    QByteArray body;
};

// POST `body` to `path` on the process listening on `wsUrl`, addressed to kPublicHost.
HttpAnswer post(const std::string &wsUrl, const QString &path, const QByteArray &body,
                const std::string &authorization)
{
    QUrl url(QString::fromStdString(wsUrl));
    url.setScheme(QStringLiteral("http"));
    url.setPath(path);
    QNetworkRequest request(url);
    request.setRawHeader("Host", kPublicHost);
    request.setRawHeader("Content-Type", "application/json");
    request.setRawHeader("Authorization", QByteArray::fromStdString(authorization));
    QNetworkAccessManager network;
    QNetworkReply *reply = network.post(request, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(kOkTimeoutMs))
        return {};
    HttpAnswer answer {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                       reply->readAll()};
    reply->deleteLater();
    return answer;
}

std::string authorization(const TestIdentity &who, const QString &path, const QByteArray &body)
{
    return nostr::nip98::buildAuthorizationHeader(
        who.key, "http://" + kPublicHost.toStdString() + path.toStdString(), "POST",
        std::string_view(body.constData(), std::size_t(body.size())),
        QDateTime::currentSecsSinceEpoch());
}

HttpAnswer get(const std::string &wsUrl, const QString &path)
{
    QUrl url(QString::fromStdString(wsUrl));
    url.setScheme(QStringLiteral("http"));
    url.setPath(path);
    QNetworkAccessManager network;
    QNetworkReply *reply = network.get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(kOkTimeoutMs))
        return {};
    HttpAnswer answer {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                       reply->readAll()};
    reply->deleteLater();
    return answer;
}

// The value of one unlabelled counter in a /metrics text, -1 when it is not there.
long long metric(const QByteArray &text, const QByteArray &name)
{
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith(QByteArray(name + ' ')))
            return line.mid(name.size() + 1).trimmed().toLongLong();
    }
    return -1;
}

bool isLiveEvent(const nlohmann::json &frame, const std::string &subscription,
                 const std::string &id)
{
    return frame.is_array() && frame.size() == 3 && frame[0] == "EVENT" && frame[1] == subscription
        && frame[2]["id"] == id;
}

// EVENT frames of `subscription` left in the inbox up to and including `marker` (which must come).
std::optional<std::vector<std::string>>
idsUntil(WsTestClient &client, const std::string &subscription, const std::string &marker)
{
    std::vector<std::string> ids;
    for (;;) {
        const auto frame = client.waitFor(
            [&](const nlohmann::json &f) {
                return f.is_array() && f.size() == 3 && f[0] == "EVENT" && f[1] == subscription;
            },
            kOkTimeoutMs);
        if (frame.is_null())
            return std::nullopt;
        if (frame[2]["id"] == marker)
            return ids;
        ids.push_back(frame[2]["id"].get<std::string>());
    }
}

struct RoundResult
{
    int accepted = 0;
    std::vector<std::string> refusals;
    std::string winnerId;

    std::string refusalText() const
    {
        std::string text;
        for (const auto &refusal : refusals)
            text += (text.empty() ? "" : " / ") + refusal;
        return text;
    }
};

// Sends `a` through `first` and `b` through `second` back to back, then collects both OKs.
std::optional<RoundResult> race(WsTestClient &first, const nostr::Event &a, WsTestClient &second,
                                const nostr::Event &b)
{
    first.sendEvent(a);
    second.sendEvent(b);
    const auto okA = first.waitForOk(a.id, kOkTimeoutMs);
    const auto okB = second.waitForOk(b.id, kOkTimeoutMs);
    if (okA.is_null() || okB.is_null())
        return std::nullopt;
    RoundResult result;
    for (const auto &[ok, event] : {std::pair {&okA, &a}, std::pair {&okB, &b}}) {
        if ((*ok)[2] == true) {
            ++result.accepted;
            result.winnerId = event->id;
        } else {
            result.refusals.push_back((*ok)[3].get<std::string>());
        }
    }
    return result;
}

} // namespace

class TestServerMultiprocess : public QObject
{
    Q_OBJECT

private:
    std::optional<PgUrls> m_pg;
    QProcess m_relayA, m_relayB;
    std::string m_urlA, m_urlB;
    TestIdentity m_alice, m_bob;

    static std::string startOn(QProcess &process, const PgUrls &pg)
    {
        const quint16 port = startRelayProcess(
            process, {kRelayBinary},
            {QStringLiteral("--database-url"), QString::fromStdString(pg.writer),
             QStringLiteral("--community"), QString::fromLatin1(kPublicHost + "=local")});
        return port ? "ws://127.0.0.1:" + std::to_string(port) : std::string();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
        m_pg = PgTestCluster::freshStore();
        QVERIFY2(m_pg, "a PostgreSQL-only suite: run it as ctest's test_server_multiprocess_pg");
        // One after the other: the first creates the schema's tables, the second finds them.
        m_urlA = startOn(m_relayA, *m_pg);
        QVERIFY(!m_urlA.empty());
        m_urlB = startOn(m_relayB, *m_pg);
        QVERIFY(!m_urlB.empty());
    }

    void cleanupTestCase()
    {
        for (QProcess *relay : {&m_relayA, &m_relayB}) {
            relay->terminate();
            relay->waitForFinished(10000);
        }
    }

    void racingConditionalSavesHaveExactlyOneWinner()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        const std::string channel = newChannelId();
        const auto created = a.publish(
            m_alice.sign(9007, now, {{"h", channel}, {"name", "race"}, {"visibility", "open"}}),
            kOkTimeoutMs);
        QVERIFY2(!created.is_null() && created[2] == true, created.dump().c_str());
        const auto joined = b.publish(m_bob.sign(9021, now, {{"h", channel}}), kOkTimeoutMs);
        QVERIFY2(!joined.is_null() && joined[2] == true, joined.dump().c_str());
        const auto first =
            m_alice.sign(40100, now, {{"h", channel}, {"expected-revision", "none"}}, "# v0");
        const auto stored = a.publish(first, kOkTimeoutMs);
        QVERIFY2(!stored.is_null() && stored[2] == true, stored.dump().c_str());

        std::string head = first.id;
        int forks = 0;
        for (int round = 1; round <= kCanvasRounds; ++round) {
            const nostr::Tags tags {{"h", channel}, {"expected-revision", head}};
            const auto mine =
                m_alice.sign(40100, now + round, tags, "# alice " + std::to_string(round));
            const auto theirs =
                m_bob.sign(40100, now + round, tags, "# bob " + std::to_string(round));
            const auto result = race(a, mine, b, theirs);
            QVERIFY2(result, ("no answer in round " + std::to_string(round)).c_str());
            if (result->accepted != 1) {
                ++forks;
                QVERIFY2(result->accepted == 2,
                         ("both saves refused: " + result->refusalText()).c_str());
                // Both children of one head are stored; the head is now the newer of the two
                // (same second: the lower id, nostr::isNewer).
                head = std::min(mine.id, theirs.id);
                continue;
            }
            QCOMPARE(result->refusals.size(), std::size_t(1));
            QCOMPARE(result->refusals.front(),
                     std::string("conflict: canvas changed since it was loaded"));
            head = result->winnerId;
        }
        qInfo("canvas: both saves accepted in %d of %d rounds", forks, kCanvasRounds);
        QCOMPARE(forks, 0);
    }

    void racingCreatesOfOneChannelHaveExactlyOneWinner()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        int doubles = 0;
        for (int round = 1; round <= kCreateRounds; ++round) {
            const std::string channel = newChannelId();
            const auto mine = m_alice.sign(9007, now, {{"h", channel}, {"name", "alice's"}});
            const auto theirs = m_bob.sign(9007, now, {{"h", channel}, {"name", "bob's"}});
            const auto result = race(a, mine, b, theirs);
            QVERIFY2(result, ("no answer in round " + std::to_string(round)).c_str());
            if (result->accepted != 1) {
                ++doubles;
                QVERIFY2(result->accepted == 2,
                         ("both creations refused: " + result->refusalText()).c_str());
                continue;
            }
            QCOMPARE(result->refusals.size(), std::size_t(1));
            QCOMPARE(result->refusals.front(), std::string("duplicate: channel already exists"));
        }
        qInfo("channels: both creations accepted in %d of %d rounds", doubles, kCreateRounds);
        QCOMPARE(doubles, 0);
    }

    // Saved through A, delivered live to B's subscribers (issue 27 item 4): each event once, none
    // twice on A (which fanned it out itself), and the 99th percentile of send → arrival on B
    // within the bound.
    void liveEventsReachTheOtherProcessOnce()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        const std::string channel = newChannelId();
        for (const auto &event :
             {m_alice.sign(9007, now,
                           {{"h", channel}, {"name", "live"}, {"visibility", "private"}}),
              m_alice.sign(9000, now, {{"h", channel}, {"p", m_bob.pubkey()}})}) {
            const auto ok = a.publish(event, kOkTimeoutMs);
            QVERIFY2(!ok.is_null() && ok[2] == true, ok.dump().c_str());
        }
        // A channel's live events go to subscriptions scoped to it (docs/buzz-protocol.md
        // §Subscriptions).
        const std::string room = "{\"kinds\":[9,20002],\"#h\":[\"" + channel + "\"]}";
        b.sendReq("room", {room});
        QVERIFY(b.eventsUntilEose("room", kOkTimeoutMs).has_value());
        a.sendReq("room", {room});
        QVERIFY(a.eventsUntilEose("room", kOkTimeoutMs).has_value());

        std::vector<qint64> latenciesMs;
        QElapsedTimer clock;
        for (int i = 0; i < kLiveEvents; ++i) {
            const auto message =
                m_alice.sign(9, now, {{"h", channel}}, "message " + std::to_string(i));
            clock.start();
            a.sendEvent(message);
            const auto live = b.waitFor(
                [&](const nlohmann::json &f) { return isLiveEvent(f, "room", message.id); },
                kOkTimeoutMs);
            QVERIFY2(!live.is_null(), ("event " + std::to_string(i) + " never reached B").c_str());
            latenciesMs.push_back(clock.elapsed());
            const auto ok = a.waitForOk(message.id, kOkTimeoutMs);
            QVERIFY2(!ok.is_null() && ok[2] == true, ok.dump().c_str());
            QVERIFY(!a.waitFor([&](const nlohmann::json &f) {
                          return isLiveEvent(f, "room", message.id);
                      }).is_null());
        }
        std::sort(latenciesMs.begin(), latenciesMs.end());
        const auto percentile = [&](double p) {
            return latenciesMs[std::size_t(std::ceil(p * double(latenciesMs.size()))) - 1];
        };
        qInfo("live A -> B over %d events: p50 %lld ms, p99 %lld ms, max %lld ms", kLiveEvents,
              percentile(0.5), percentile(0.99), latenciesMs.back());
        QVERIFY2(percentile(0.99) <= kLiveP99BoundMs,
                 qPrintable(QStringLiteral("p99 %1 ms").arg(percentile(0.99))));

        // Typing is never stored, and crosses all the same.
        const auto typing = m_alice.sign(20002, now, {{"h", channel}});
        const auto typed = a.publish(typing, kOkTimeoutMs);
        QVERIFY2(!typed.is_null() && typed[2] == true, typed.dump().c_str());
        for (WsTestClient *client : {&b, &a}) {
            QVERIFY(
                !client
                     ->waitFor(
                         [&](const nlohmann::json &f) { return isLiveEvent(f, "room", typing.id); },
                         kOkTimeoutMs)
                     .is_null());
        }

        // A message through B comes after anything A's listener could still hand to A twice,
        // and one through A after anything B's could: neither inbox holds a second copy.
        const auto markB = m_bob.sign(9, now, {{"h", channel}}, "mark b");
        QVERIFY(b.publish(markB, kOkTimeoutMs)[2] == true);
        const auto extraA = idsUntil(a, "room", markB.id);
        QVERIFY(extraA.has_value());
        QVERIFY2(extraA->empty(), "A delivered an event of its own twice");
        const auto ownMark = idsUntil(b, "room", markB.id); // B's own, delivered by B
        QVERIFY(ownMark.has_value() && ownMark->empty());
        const auto markA = m_alice.sign(9, now, {{"h", channel}}, "mark a");
        QVERIFY(a.publish(markA, kOkTimeoutMs)[2] == true);
        const auto extraB = idsUntil(b, "room", markA.id);
        QVERIFY(extraB.has_value());
        QVERIFY2(extraB->empty(), "B delivered an event of A twice");
    }

    // A member removed through A loses the subscription B holds for her at once, as one process
    // does it (relay/README.md "Permissions").
    void removalThroughOneProcessClosesTheOthersSubscription()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        const std::string channel = newChannelId();
        for (const auto &event :
             {m_alice.sign(9007, now,
                           {{"h", channel}, {"name", "kick"}, {"visibility", "private"}}),
              m_alice.sign(9000, now, {{"h", channel}, {"p", m_bob.pubkey()}})}) {
            const auto ok = a.publish(event, kOkTimeoutMs);
            QVERIFY2(!ok.is_null() && ok[2] == true, ok.dump().c_str());
        }
        b.sendReq("room", {"{\"kinds\":[9],\"#h\":[\"" + channel + "\"]}"});
        QVERIFY(b.eventsUntilEose("room", kOkTimeoutMs).has_value());
        const auto removed = a.publish(
            m_alice.sign(9001, now + 1, {{"h", channel}, {"p", m_bob.pubkey()}}), kOkTimeoutMs);
        QVERIFY2(!removed.is_null() && removed[2] == true, removed.dump().c_str());
        const auto closed = b.waitForClosed("room", kOkTimeoutMs);
        QVERIFY2(closed.size() == 3 && closed[2] == "restricted: channel access revoked",
                 closed.dump().c_str());
    }

    // The listeners' connections are cut (as a server restart or a failover cuts them) while A
    // goes on saving: B reconnects, reads what it missed, and delivers every event once.
    void listenerReconnectCatchesUp()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        b.sendReq("notes", {R"({"kinds":[1]})"});
        QVERIFY(b.eventsUntilEose("notes", kOkTimeoutMs).has_value());
        const long long before =
            metric(get(m_urlB, QStringLiteral("/metrics")).body, "buzz_fanout_reconnects_total");
        QVERIFY(before >= 0);

        std::string error;
        auto admin = relay::store::PgConnection::open(m_pg->writer, error);
        QVERIFY2(admin, error.c_str());
        const auto cut = admin->run(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = $1",
            relay::store::PgParams().text(relay::store::PgFanoutListener::kApplicationName));
        QVERIFY2(cut.ok(), cut.message().c_str());
        QVERIFY2(cut.int64(0, 0) >= 2, "both processes listen");
        std::vector<std::string> ids;
        for (int i = 0; i < 20; ++i) {
            const auto note = m_alice.sign(1, now, {}, "while away " + std::to_string(i));
            ids.push_back(note.id);
            const auto ok = a.publish(note, kOkTimeoutMs);
            QVERIFY2(!ok.is_null() && ok[2] == true, ok.dump().c_str());
        }
        const auto mark = m_alice.sign(1, now, {}, "back");
        QVERIFY(a.publish(mark, kOkTimeoutMs)[2] == true);
        const auto received = idsUntil(b, "notes", mark.id);
        QVERIFY(received.has_value());
        QCOMPARE(*received, ids);
        const QByteArray metrics = get(m_urlB, QStringLiteral("/metrics")).body;
        QVERIFY(metric(metrics, "buzz_fanout_reconnects_total") > before);
        qInfo("events B read after reconnecting (the 20 and the mark, unless some came before "
              "the cut was noticed): %lld",
              metric(metrics, "buzz_fanout_caught_up_total"));
    }

    // Alice says she is here through A; Bob asks B (docs/buzz-protocol.md §Presence and typing),
    // whose presence subscription then gets her 20001 live.
    void presenceIsOneTableForEveryProcess()
    {
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        WsTestClient a(QUrl(QString::fromStdString(m_urlA)));
        WsTestClient b(QUrl(QString::fromStdString(m_urlB)));
        QVERIFY(a.connectAndAuthenticate(m_alice.key, m_urlA, now, kOkTimeoutMs));
        QVERIFY(b.connectAndAuthenticate(m_bob.key, m_urlB, now, kOkTimeoutMs));
        b.sendReq("here", {R"({"kinds":[20001],"authors":[")" + m_alice.pubkey() + R"("]})"});
        QVERIFY(b.eventsUntilEose("here", kOkTimeoutMs).has_value());
        const auto here = m_alice.sign(20001, now, {}, "editing");
        const auto ok = a.publish(here, kOkTimeoutMs);
        QVERIFY2(!ok.is_null() && ok[2] == true, ok.dump().c_str());
        QVERIFY(!b.waitFor([&](const nlohmann::json &f) { return isLiveEvent(f, "here", here.id); },
                           kOkTimeoutMs)
                     .is_null());

        const QByteArray body = QByteArray::fromStdString(R"([{"kinds":[20001],"authors":[")"
                                                          + m_alice.pubkey() + R"("]}])");
        const QString path = QStringLiteral("/query");
        const HttpAnswer answer = post(m_urlB, path, body, authorization(m_bob, path, body));
        QCOMPARE(answer.status, 200);
        const auto events = nlohmann::json::parse(answer.body.toStdString(), nullptr, false);
        QVERIFY2(events.is_array() && events.size() == 1, answer.body.constData());
        QCOMPARE(events[0]["kind"], 20001);
        QCOMPARE(events[0]["content"], "editing");
        QCOMPARE(events[0]["tags"], nlohmann::json::array({{"p", m_alice.pubkey()}}));
    }

    // A token captured from a request through A is refused through B (issue 27 item 5), with the
    // answer one process gives (relay/README.md "Limits").
    void nip98ReplayIsRefusedAcrossProcesses()
    {
        const QString path = QStringLiteral("/query");
        const QByteArray body = R"([{"kinds":[1],"limit":1}])";
        const std::string token = authorization(m_alice, path, body);
        QCOMPARE(post(m_urlA, path, body, token).status, 200);
        // B serves the public host: a fresh token is fine there...
        QCOMPARE(post(m_urlB, path, body, authorization(m_alice, path, body)).status, 200);
        // ...the one A took is not.
        const HttpAnswer replayed = post(m_urlB, path, body, token);
        QCOMPARE(replayed.status, 401);
        QVERIFY2(replayed.body.contains("NIP-98: replay detected"), replayed.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestServerMultiprocess)
#include "test_server_multiprocess.moc"
