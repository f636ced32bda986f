// The connection as a user sees it, on the real widgets (by objectName), with the relay behind the
// recording proxy: down at start, frozen, cut off and back, refusing this identity, closing the
// live subscription of the open canvas.

#include "CanvasTestSupport.h"
#include "UiTestHarness.h"

#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace buzz;
using namespace std::chrono_literals;
using test::UiTestHarness;
using State = client::RelaySocket::State;

namespace {

client::RelaySocket::Timing quickTiming()
{
    client::RelaySocket::Timing timing;
    timing.initialBackoff = 200ms;
    timing.maxBackoff = 400ms;
    timing.connectTimeout = 2000ms;
    timing.pingInterval = 100ms;
    timing.stallAfter = 800ms;
    timing.probeTimeout = 300ms;
    return timing;
}

template<class T>
T *child(QWidget *window, const char *name)
{
    return window->findChild<T *>(QString::fromLatin1(name));
}

} // namespace

class ConnectionTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    relay::test::TestIdentity m_owner;
    QString m_channel;

    bool startRelay(relay::test::RelayTestFixture::Options options = {})
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        if (!m_relay->start(std::move(options)))
            return false;
        m_channel = QString::fromStdString(m_relay->relay->createChannel(m_owner, "general"));
        return !m_channel.isEmpty();
    }
    QString relayUrl() const { return m_relay->proxy.url().toString(); }
    static bool canvasOpen(desktop::DesktopSession *session, const QString &channel)
    {
        auto *pane = session->window()->canvasPane();
        return QTest::qWaitFor([&] { return pane->channelId() == channel && pane->isHeadKnown(); },
                               10000);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { m_relay.reset(); }

    void relayDownAtStartRecoversWithoutARestart()
    {
        QVERIFY(startRelay());
        m_relay->proxy.setRefusing(true);
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("down"), relayUrl(), quickTiming());
        QVERIFY(session);
        QWidget *window = session->window();
        auto *banner = child<ui::NoticeBanner>(window, "connectionBanner");
        auto *status = child<QLabel>(window, "relayStatusLabel");
        auto *diagnostics = child<QLabel>(window, "connectionStateLabel");
        auto *retry = child<QToolButton>(window, "relayRetryButton");
        QVERIFY(banner && status && diagnostics && retry);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        QTRY_VERIFY(banner->text().startsWith(QStringLiteral("Can't reach the relay.")));
        QCOMPARE(banner->tone(), ui::NoticeBanner::Tone::Error);
        QVERIFY(banner->action(QStringLiteral("Retry"))->isVisible());
        QVERIFY(!banner->action(QStringLiteral("Reconnect"))->isVisible());
        // The status bar and Diagnostics say the same thing.
        QTRY_VERIFY(status->text().contains(QStringLiteral("Can't reach the relay.")));
        QTRY_VERIFY(diagnostics->text().contains(QStringLiteral("Can't reach the relay.")));
        QCOMPARE(retry->text(), QStringLiteral("Retry now"));
        auto *channels = child<QLabel>(window, "channelListStatusLabel");
        QTRY_COMPARE_WITH_TIMEOUT(channels->text(), QStringLiteral("Can't reach the relay."),
                                  10000);

        m_relay->proxy.setRefusing(false); // the relay comes up; nobody touches the app
        QVERIFY(canvasOpen(session, m_channel));
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
        QVERIFY(status->text().endsWith(QStringLiteral("Connected")));
        QVERIFY(diagnostics->text().startsWith(QStringLiteral("Relay: Connected")));
        QVERIFY(!retry->isVisible());
        QVERIFY(!channels->isVisible());
    }

    void retryNowConnectsWithoutWaiting()
    {
        QVERIFY(startRelay());
        m_relay->proxy.setRefusing(true);
        client::RelaySocket::Timing timing = quickTiming();
        timing.initialBackoff = 60s;
        timing.maxBackoff = 60s;
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("retry"), relayUrl(), timing);
        QVERIFY(session);
        auto *banner = child<ui::NoticeBanner>(session->window(), "connectionBanner");
        QTRY_VERIFY_WITH_TIMEOUT(banner->text().contains(QStringLiteral("Retrying in")), 5000);
        m_relay->proxy.setRefusing(false);
        QTest::mouseClick(banner->action(QStringLiteral("Retry")), Qt::LeftButton);
        QVERIFY(canvasOpen(session, m_channel)); // long before the 60 s backoff
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
    }

    void frozenRelayIsStalledNotConnected()
    {
        QVERIFY(startRelay());
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("frozen"), relayUrl(), quickTiming());
        QVERIFY(session);
        QVERIFY(canvasOpen(session, m_channel));
        QWidget *window = session->window();
        auto *status = child<QLabel>(window, "relayStatusLabel");
        auto *banner = child<ui::NoticeBanner>(window, "connectionBanner");
        QTRY_VERIFY(status->text().endsWith(QStringLiteral("Connected")));

        m_relay->proxy.setFrozen(true);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("not answering")), 5000);
        QVERIFY(!status->text().contains(QStringLiteral("Connected")));
        QTRY_VERIFY(banner->isVisible());
        QCOMPARE(banner->tone(), ui::NoticeBanner::Tone::Warning);
        QVERIFY(banner->text().contains(QStringLiteral("Saves may not go through")));
        QVERIFY(banner->action(QStringLiteral("Retry"))->isVisible());

        m_relay->proxy.setFrozen(false);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().endsWith(QStringLiteral("Connected")), 5000);
        QTRY_VERIFY(!banner->isVisible());
    }

    void automaticReconnectClearsTheRedBanners()
    {
        QVERIFY(startRelay());
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("cut"), relayUrl(), quickTiming());
        QVERIFY(session);
        QVERIFY(canvasOpen(session, m_channel));
        QWidget *window = session->window();
        auto *banner = child<ui::NoticeBanner>(window, "connectionBanner");
        auto *loadError = child<ui::NoticeBanner>(window, "loadErrorBanner");

        m_relay->proxy.setRefusing(true);
        m_relay->proxy.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        child<QAction>(window, "reloadAction")->trigger(); // F5 while the relay is away
        QTRY_VERIFY_WITH_TIMEOUT(loadError->isVisible(), 10000);
        QCOMPARE(loadError->text(), QStringLiteral("Can't reach the relay."));

        m_relay->proxy.setRefusing(false);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!loadError->isVisible(), 5000);
    }

    void rejectedIdentityOffersReconnectAndIdentity()
    {
        relay::test::TestIdentity member;
        relay::test::RelayTestFixture::Options options;
        options.requireRelayMembership = true;
        options.relayMembers = {m_owner.pubkey(), member.pubkey()};
        QVERIFY(startRelay(std::move(options)));
        UiTestHarness harness;
        auto *session =
            harness.openSessionOn(QStringLiteral("stranger"), relayUrl(), quickTiming());
        QVERIFY(session);
        QWidget *window = session->window();
        auto *banner = child<ui::NoticeBanner>(window, "connectionBanner");
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        QCOMPARE(banner->text(),
                 QStringLiteral("The relay refused this identity: restricted: "
                                "not a relay member"));
        QVERIFY(banner->action(QStringLiteral("Reconnect"))->isVisible());
        QVERIFY(banner->action(QStringLiteral("Identity"))->isVisible());
        QVERIFY(!banner->action(QStringLiteral("Retry"))->isVisible());
        QCOMPARE(child<QToolButton>(window, "relayRetryButton")->text(),
                 QStringLiteral("Reconnect"));

        // Reconnect really tries again (and is refused again: nothing changed).
        auto *socket = session->services().connection->socket();
        QSignalSpy states(socket, &client::RelaySocket::stateChanged);
        QTest::mouseClick(banner->action(QStringLiteral("Reconnect")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(states.count() >= 2, 5000);
        QCOMPARE(states.at(0).at(0).value<State>(), State::Connecting);
        QTRY_COMPARE(socket->state(), State::AuthRejected);

        // The fix: the member's key, imported through the Identity dialog the banner opens.
        QTest::mouseClick(banner->action(QStringLiteral("Identity")), Qt::LeftButton);
        QWidget *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("identityDialog"));
        QVERIFY(dialog);
        child<QLineEdit>(dialog, "importKeyEdit")
            ->setText(QString::fromStdString(member.key.toNsec()));
        QTest::mouseClick(child<QPushButton>(dialog, "importKeyButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(socket->authenticatedAs(),
                                  QString::fromStdString(member.pubkey()), 5000);
        QVERIFY(!banner->isVisible());
        QVERIFY(canvasOpen(session, m_channel));
        child<QPushButton>(dialog, "identityCloseButton")->click();
    }

    void relayClosingTheLiveSubscriptionIsShownAndCaughtUp()
    {
        QVERIFY(startRelay());
        client::RelaySocket::Timing timing = quickTiming();
        timing.initialBackoff = 1500ms; // the paused state stays on screen long enough to read
        timing.maxBackoff = 3000ms;
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("live"), relayUrl(), timing);
        QVERIFY(session);
        QVERIFY(canvasOpen(session, m_channel));
        QWidget *window = session->window();
        auto *live = child<QLabel>(window, "liveStatusLabel");
        auto *diagnostics = child<QLabel>(window, "connectionStateLabel");
        QTRY_COMPARE_WITH_TIMEOUT(live->text(), QStringLiteral("Live updates on"), 5000);

        QCOMPARE(
            m_relay->proxy.closeSubscriptions("40100", QStringLiteral("error: query timed out")),
            1);
        QTRY_VERIFY_WITH_TIMEOUT(
            live->text().startsWith(QStringLiteral(
                "Live updates paused (relay: error: query timed out) — resubscribing in")),
            5000);
        QVERIFY(diagnostics->text().contains(live->text()));
        // Someone saves while this window's subscription is gone.
        test::CanvasClient other(m_relay->proxy.url());
        const auto saved = test::await(
            other.service->save(m_channel, std::nullopt, QStringLiteral("# Written meanwhile")));
        QVERIFY(saved.isSaved());

        QTRY_COMPARE_WITH_TIMEOUT(live->text(), QStringLiteral("Live updates on"), 10000);
        auto *view = child<QTextBrowser>(window, "canvasView");
        QTRY_VERIFY_WITH_TIMEOUT(view->toPlainText().contains(QStringLiteral("Written meanwhile")),
                                 5000);
    }
};

QTEST_MAIN(ConnectionTest)
#include "test_connection.moc"
