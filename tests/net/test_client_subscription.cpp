// RelaySubscription's rules without a relay: what a REQ sent again asks for, which events are
// reported, which CLOSED reasons are worth a retry.

#include "net/client/RelaySubscription.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <nlohmann/json.hpp>

using buzz::client::RelaySubscription;

namespace {

buzz::nostr::Event eventAt(const char *id, qint64 createdAt)
{
    buzz::nostr::Event event;
    event.id = id;
    event.createdAt = createdAt;
    return event;
}

QJsonObject firstFilter(const QByteArray &frame)
{
    return QJsonDocument::fromJson(frame).array().at(2).toObject();
}

} // namespace

class TestClientSubscription : public QObject
{
    Q_OBJECT

private slots:
    void sentAgainItAsksFromTheNewestEventSeenWithOverlap()
    {
        RelaySubscription subscription;
        buzz::nostr::Filter filter;
        filter.kinds = std::vector<int> {40100};
        filter.since = 1000;
        subscription.filters = {filter};
        QCOMPARE(firstFilter(subscription.reqFrame(QStringLiteral("sub1")))
                     .value(QLatin1String("since"))
                     .toInteger(),
                 1000);
        QVERIFY(subscription.acceptEvent(eventAt("a", 2000)));
        QVERIFY(subscription.acceptEvent(eventAt("b", 1500))); // older, still new to us
        const QByteArray again = subscription.reqFrame(QStringLiteral("sub1"));
        QCOMPARE(QJsonDocument::fromJson(again).array().at(1).toString(), QStringLiteral("sub1"));
        QCOMPARE(firstFilter(again).value(QLatin1String("since")).toInteger(), 1995);
    }

    void eachEventIsReportedOnce()
    {
        RelaySubscription subscription;
        QVERIFY(subscription.acceptEvent(eventAt("a", 10)));
        QVERIFY(!subscription.acceptEvent(eventAt("a", 10)));
        QVERIFY(subscription.acceptEvent(eventAt("b", 10)));
    }

    void eoseTellsTheRouteOnlyInOurExtension()
    {
        // relay/README.md "Read routing": a third element {"read_route":"…"}; anything else there
        // (another relay's extension, a wrong type) is no route, never an error.
        using nlohmann::json;
        const auto route = [](const char *frame) {
            return buzz::client::RelaySubscription::eoseRoute(json::parse(frame));
        };
        QCOMPARE(
            route(
                R"(["EOSE","s",{"read_route":"replica; reason=fresh; replica=replica-0; age_ms=7"}])"),
            QStringLiteral("replica; reason=fresh; replica=replica-0; age_ms=7"));
        QCOMPARE(route(R"(["EOSE","s"])"), QString());
        QCOMPARE(route(R"(["EOSE","s",{"read_route":5}])"), QString());
        QCOMPARE(route(R"(["EOSE","s","writer"])"), QString());
        QCOMPARE(route(R"(["EOSE","s",{"other":"x"}])"), QString());
    }

    void closedReasons_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("permanent");
        QTest::addColumn<QString>("status");
        QTest::newRow("query timeout") << "error: query timed out" << false << "retryable";
        QTest::newRow("busy reader") << "error: retryable: readers busy" << false << "retryable";
        QTest::newRow("too many") << "error: too many subscriptions" << false << "retryable";
        QTest::newRow("not authenticated") << "auth-required: not authenticated" << false << "auth";
        QTest::newRow("not a member") << "restricted: not a channel member" << true << "auth";
        QTest::newRow("bad filter") << "invalid: bad filter" << true << "bad_request";
    }

    void closedReasons()
    {
        QFETCH(QString, reason);
        QFETCH(bool, permanent);
        QFETCH(QString, status);
        QCOMPARE(RelaySubscription::isPermanentRefusal(reason), permanent);
        QCOMPARE(RelaySubscription::closedStatus(reason), status);
    }
};

QTEST_GUILESS_MAIN(TestClientSubscription)
#include "test_client_subscription.moc"
