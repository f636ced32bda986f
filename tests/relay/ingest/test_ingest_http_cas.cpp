// Canvas compare-and-swap over the real transports: POST /events (409 with the frozen conflict
// strings, 400 for invalid:, 200 duplicate: for the head replay) and WebSocket OK frames.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include <QTest>

using namespace buzz;
using namespace buzz::relay::test;

class TestEngineHttpCas : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<RelayTestFixture> relay;
    std::unique_ptr<HttpTestClient> http;
    TestIdentity alice;
    std::string channel;

    nostr::Event canvas(std::int64_t createdAt, const std::optional<std::string> &expected,
                        const std::string &text)
    {
        nostr::Tags tags {{"h", channel}};
        if (expected)
            tags.push_back({"expected-revision", *expected});
        return alice.sign(40100, createdAt, std::move(tags), text);
    }

    nostr::Event canvasWithIdOrder(std::int64_t createdAt, const std::string &expected, bool below)
    {
        for (int attempt = 0;; ++attempt) {
            auto event = canvas(createdAt, expected, "tie " + std::to_string(attempt));
            if ((event.id < expected) == below)
                return event;
        }
    }

    std::string saved(const nostr::Event &event)
    {
        const auto reply = http->postEvent(event);
        if (reply.status != 200 || !reply.json().value("accepted", false))
            qWarning() << "save failed:" << reply.status << reply.body;
        return event.id;
    }

    void expectConflict(const nostr::Event &event, const std::string &message)
    {
        const auto reply = http->postEvent(event);
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.error(), message);
    }

    std::string headOverHttp()
    {
        const auto reply =
            http->query("[{\"kinds\":[40100],\"#h\":[\"" + channel + "\"],\"limit\":1}]");
        const auto rows = reply.json();
        return rows.is_array() && !rows.empty() ? rows[0].value("id", "") : std::string();
    }

private slots:
    void init()
    {
        relay = std::make_unique<RelayTestFixture>();
        QVERIFY(relay->isListening());
        http = std::make_unique<HttpTestClient>(*relay, &alice.key);
        channel = relay->createChannel(alice, "canvas");
        QVERIFY(!channel.empty());
    }

    void noneOnEmptyChannelThenNoneOnExistingCanvas()
    {
        const auto first = canvas(relay->now(), "none", "# v1");
        const auto reply = http->postEvent(first);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json().value("accepted", false), true);
        QCOMPARE(reply.json().value("message", "?"), std::string(""));
        QCOMPARE(headOverHttp(), first.id);
        expectConflict(canvas(relay->now() + 1, "none", "# again"),
                       "conflict: canvas changed since it was loaded");
    }

    void staleHeadIsChanged()
    {
        const auto v1 = saved(canvas(relay->now(), "none", "# v1"));
        saved(canvas(relay->now() + 1, v1, "# v2"));
        expectConflict(canvas(relay->now() + 2, v1, "# stale"),
                       "conflict: canvas changed since it was loaded");
    }

    void unknownRevisionOnEmptyChannel()
    {
        expectConflict(canvas(relay->now(), std::string(64, 'a'), "# x"),
                       "conflict: canvas revision does not exist");
    }

    void olderWriteDoesNotSupersede()
    {
        const auto v1 = saved(canvas(relay->now(), "none", "# v1"));
        expectConflict(canvas(relay->now() - 1, v1, "# older"),
                       "conflict: canvas write does not supersede the current head");
    }

    void sameSecondTieBothWays()
    {
        const auto v1 = saved(canvas(relay->now(), "none", "# v1"));
        expectConflict(canvasWithIdOrder(relay->now(), v1, false),
                       "conflict: canvas write does not supersede the current head");
        const auto lower = canvasWithIdOrder(relay->now(), v1, true);
        QCOMPARE(http->postEvent(lower).status, 200);
        QCOMPARE(headOverHttp(), lower.id);
    }

    void replayOfHeadAcceptedReplayOfNonHeadRejected()
    {
        const auto first = canvas(relay->now(), "none", "# v1");
        saved(first);
        auto replay = http->postEvent(first);
        QCOMPARE(replay.status, 200);
        QCOMPARE(replay.json().value("accepted", false), true);
        QCOMPARE(replay.json().value("message", ""), std::string("duplicate:"));
        saved(canvas(relay->now() + 1, first.id, "# v2"));
        expectConflict(first, "conflict: canvas changed since it was loaded");
    }

    void invalidShapesAre400()
    {
        auto event = alice.sign(
            40100, relay->now(),
            {{"h", channel}, {"expected-revision", "none"}, {"expected-revision", "none"}}, "# x");
        auto reply = http->postEvent(event);
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), std::string("invalid: duplicate expected-revision tag"));
        reply = http->postEvent(
            alice.sign(40100, relay->now(), {{"h", channel}, {"expected-revision", "x"}}, "# x"));
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), std::string("invalid: bad expected canvas revision"));
        reply = http->postEvent(canvas(relay->now() + 301, "none", "# future"));
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(),
                 std::string("invalid: canvas event timestamp too far in the future"));
    }

    void conflictsOverWebSocket()
    {
        WsTestClient ws(relay->wsUrl());
        QVERIFY(ws.connectAndAuthenticate(alice.key, relay->relayUrl(), relay->now()));
        const auto first = canvas(relay->now(), "none", "# v1");
        auto ok = ws.publish(first);
        QCOMPARE(ok.dump(), nlohmann::json::array({"OK", first.id, true, ""}).dump());
        const auto again = canvas(relay->now() + 1, "none", "# again");
        ok = ws.publish(again);
        QCOMPARE(ok.dump(),
                 nlohmann::json::array(
                     {"OK", again.id, false, "conflict: canvas changed since it was loaded"})
                     .dump());
        ok = ws.publish(first);
        QCOMPARE(ok.dump(), nlohmann::json::array({"OK", first.id, true, "duplicate:"}).dump());
        const auto older = canvas(relay->now() - 5, first.id, "# older");
        ok = ws.publish(older);
        QCOMPARE(
            ok.dump(),
            nlohmann::json::array({"OK", older.id, false,
                                   "conflict: canvas write does not supersede the current head"})
                .dump());
    }
};

QTEST_GUILESS_MAIN(TestEngineHttpCas)
#include "test_ingest_http_cas.moc"
