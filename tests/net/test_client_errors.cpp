// The desktop's classification and wording of relay failures and the CLI mapping
// (docs/buzz-protocol.md §Desktop wording, §CLI contract).

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayError.h"

#include <QTest>

using buzz::client::HttpBridgeClient;
using buzz::client::RelayError;
using Kind = buzz::client::RelayError::Kind;

class TestClientErrors : public QObject
{
    Q_OBJECT

private slots:
    void jsonErrorBodiesKeepTheRelaysMessage_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("detail");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("conflict")
            << 409 << QByteArray(R"({"error":"conflict: canvas changed since it was loaded"})")
            << int(Kind::Conflict)
            << "relay returned 409: conflict: canvas changed since it was loaded" << 5;
        QTest::newRow("invalid") << 400 << QByteArray(R"({"error":"invalid: channel is archived"})")
                                 << int(Kind::BadRequest)
                                 << "relay returned 400: invalid: channel is archived" << 2;
        QTest::newRow("nip98") << 401 << QByteArray(R"({"error":"missing Nostr auth"})")
                               << int(Kind::Auth) << "relay returned 401: missing Nostr auth" << 3;
        QTest::newRow("membership")
            << 403
            << QByteArray(
                   R"({"error":"relay_membership_required","message":"You must be a relay member to access this relay"})")
            << int(Kind::Auth)
            << "relay returned 403: You must be a relay member to access this relay" << 3;
        QTest::newRow("community")
            << 404 << QByteArray(R"({"error":"relay: no community is configured for this host"})")
            << int(Kind::NotFound)
            << "relay returned 404: relay: no community is configured for this host" << 1;
        QTest::newRow("query timeout")
            << 503 << QByteArray(R"({"error":"query timed out"})") << int(Kind::Retryable)
            << "relay returned 503: query timed out" << 2;
        QTest::newRow("internal") << 500 << QByteArray(R"({"error":"internal server error"})")
                                  << int(Kind::Internal)
                                  << "relay returned 500: internal server error" << 2;
        QTest::newRow("non-json body is never shown")
            << 502 << QByteArray("Bad gateway from proxy at http://10.0.0.1")
            << int(Kind::Retryable) << "relay returned 502" << 2;
    }

    void jsonErrorBodiesKeepTheRelaysMessage()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(int, kind);
        QFETCH(QString, detail);
        QFETCH(int, exitCode);
        const RelayError error = HttpBridgeClient::classifyHttpFailure(
            status, body, QStringLiteral("application/json"), {});
        QCOMPARE(int(error.kind), kind);
        QCOMPARE(error.detail, detail);
        QCOMPARE(error.httpStatus, status);
        QCOMPARE(error.cliExitCode(), exitCode);
        QCOMPARE(error.shortText(),
                 detail); // rejected, not unreachable: the relay's words are shown
    }

    void htmlPagesAreVpnOrProxySignIns()
    {
        const RelayError html = HttpBridgeClient::classifyHttpFailure(
            200, "<!DOCTYPE html><html><body>Sign in</body></html>", QStringLiteral("text/html"),
            {});
        QCOMPARE(html.kind, Kind::Network);
        QCOMPARE(html.detail,
                 QStringLiteral("relay unreachable: relay returned an unexpected HTML page (VPN or "
                                "proxy sign-in?)"));
        QCOMPARE(html.shortText(), QStringLiteral("Can't reach the relay."));
        QCOMPARE(html.longText(),
                 QStringLiteral("Can't reach the relay — check your VPN or network connection."));
        const RelayError htmlError = HttpBridgeClient::classifyHttpFailure(
            403, "<html>blocked</html>", QStringLiteral("text/html; charset=utf-8"), {});
        QCOMPARE(htmlError.kind, Kind::Network);
    }

    void cloudflareAccessRedirect()
    {
        const RelayError error = HttpBridgeClient::classifyHttpFailure(
            302, {}, {}, QStringLiteral("https://team.cloudflareaccess.com/cdn-cgi/access/login"));
        QCOMPARE(error.kind, Kind::Network);
        QCOMPARE(
            error.detail,
            QStringLiteral("relay unreachable: network sign-in required (Cloudflare Access / VPN) "
                           "— re-authenticate and reconnect"));
        QCOMPARE(error.cliExitCode(), 2);
    }

    void successThatIsNotJson()
    {
        const RelayError error =
            HttpBridgeClient::classifyHttpFailure(200, "ok", QStringLiteral("text/plain"), {});
        QCOMPARE(error.kind, Kind::Network);
        QCOMPARE(error.detail, QStringLiteral("relay unreachable: response was not valid JSON"));
    }

    void replayedRequestMeansTheAnswerWasLost()
    {
        // Qt re-sent a request whose connection dropped; the relay had already processed it.
        const RelayError error = HttpBridgeClient::classifyHttpFailure(
            401, R"({"error":"NIP-98: replay detected"})", QStringLiteral("application/json"), {});
        QVERIFY(error.outcomeUnknown());
        QVERIFY(!error.isConflict());
    }

    void gatewayErrorsLeaveAWriteOutcomeUnknown_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("contentType");
        QTest::addColumn<bool>("unknown");
        // A gateway in front of the relay answered because the relay's answer never came back:
        // the write may have been committed.
        QTest::newRow("502 plain text")
            << 502 << QByteArray("Bad Gateway\n") << QStringLiteral("text/plain") << true;
        QTest::newRow("504 plain text") << 504 << QByteArray("upstream request timeout")
                                        << QStringLiteral("text/plain") << true;
        QTest::newRow("504 json") << 504 << QByteArray(R"({"error":"gateway timeout"})")
                                  << QStringLiteral("application/json") << true;
        // The relay itself answered: it did not write.
        QTest::newRow("503 query timed out") << 503 << QByteArray(R"({"error":"query timed out"})")
                                             << QStringLiteral("application/json") << false;
        QTest::newRow("500") << 500 << QByteArray(R"({"error":"internal server error"})")
                             << QStringLiteral("application/json") << false;
        QTest::newRow("429") << 429 << QByteArray(R"({"error":"rate-limited: slow down"})")
                             << QStringLiteral("application/json") << false;
    }

    void gatewayErrorsLeaveAWriteOutcomeUnknown()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, contentType);
        QFETCH(bool, unknown);
        const RelayError error =
            HttpBridgeClient::classifyHttpFailure(status, body, contentType, {});
        QCOMPARE(error.outcomeUnknown(), unknown);
        QCOMPARE(error.httpStatus, status);
        QCOMPARE(error.cliExitCode(), 2); // a relay-side failure either way
    }

    void conflictMarkerIsMatchedBySubstring()
    {
        const RelayError wrapped = RelayError::make(
            Kind::BadRequest,
            QStringLiteral("relay rejected event: conflict: canvas revision does not exist"));
        QVERIFY(wrapped.isConflict());
        QVERIFY(!RelayError::make(Kind::BadRequest,
                                  QStringLiteral("invalid: bad expected canvas revision"))
                     .isConflict());
    }

    void localInputErrorsAreUsage()
    {
        const RelayError local =
            RelayError::make(Kind::BadRequest, QStringLiteral("limit must be between 1 and 1000"));
        QCOMPARE(local.cliExitCode(), 1);
        QCOMPARE(local.cliCategory(), QStringLiteral("usage"));
    }
};

QTEST_GUILESS_MAIN(TestClientErrors)
#include "test_client_errors.moc"
