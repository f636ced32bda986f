// The connection as a user sees it, on the real widgets (by objectName), with the relay behind the
// recording proxy: down at start, frozen, cut off and back, refusing this identity, closing the
// live subscription of the open canvas; a save during an outage goes out by itself once the relay
// is back, and the outage is worded once (the connection banner), not by every notice.

#include "CanvasTestSupport.h"
#include "UiTestHarness.h"

#include "canvas/CanvasSession.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace buzz;
using namespace std::chrono_literals;
using test::RecordingProxy;
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
    // Revisions of the channel the writer holds with exactly `text` (another client's strong read).
    int revisionsWith(const QString &text)
    {
        test::CanvasClient reader(m_relay->proxy.url());
        const auto page = test::await(reader.service->history(m_channel));
        int count = 0;
        for (const auto &revision : page ? page->revisions : std::vector<canvas::CanvasRevision> {})
            count += revision.content == text ? 1 : 0;
        return count;
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
        // The channel list waits, without saying the outage a second time.
        auto *channels = child<QLabel>(window, "channelListStatusLabel");
        QTRY_COMPARE_WITH_TIMEOUT(channels->text(), QStringLiteral("Waiting for the relay…"),
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
        QSignalSpy loaded(session->window()->canvasPane()->session(),
                          &canvas::CanvasSession::loadFinished);
        child<QAction>(window, "reloadAction")->trigger(); // F5 while the relay is away
        // The failed reload is not a second red banner under the connection banner...
        QVERIFY(loaded.wait(10000));
        QCOMPARE(loaded.last().at(0).toBool(), false);
        QVERIFY(!loadError->isVisible());
        // ...but when the connection looks fine and a read still cannot get through, it is.
        m_relay->proxy.setRefusing(false);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
        auto *canvasSession = session->window()->canvasPane()->session();
        QTRY_VERIFY_WITH_TIMEOUT(!canvasSession->isLoading(), 10000); // the re-read on recovery
        m_relay->proxy.injectFault(
            RecordingProxy::Fault::DropRequest, [](const RecordingProxy::Request &request) {
                // the canvas head read (History pages ask for 100)
                return request.body.contains("40100") && request.body.contains("\"limit\":1}");
            });
        child<QAction>(window, "reloadAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(loadError->isVisible(), 10000);
        QCOMPARE(loadError->text(), QStringLiteral("Can't reach the relay."));

        m_relay->proxy.setRefusing(true);
        m_relay->proxy.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        m_relay->proxy.setRefusing(false);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!loadError->isVisible(), 5000);
    }

    void saveDuringAnOutageGoesOutWhenTheRelayIsBack()
    {
        QVERIFY(startRelay());
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("outage"), relayUrl(), quickTiming());
        QVERIFY(session);
        QVERIFY(canvasOpen(session, m_channel));
        QWidget *window = session->window();
        auto *pane = session->window()->canvasPane();
        auto *banner = child<ui::NoticeBanner>(window, "connectionBanner");
        auto *notice = child<ui::NoticeBanner>(window, "saveNotice");
        auto *loadError = child<ui::NoticeBanner>(window, "loadErrorBanner");
        auto *saveState = child<QLabel>(window, "saveStateLabel");
        auto *editor = child<QPlainTextEdit>(window, "canvasEditor");
        pane->startEditing();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClicks(editor, QStringLiteral("Plan: written before the outage"));

        // The relay goes away; typing goes on; Ctrl+S.
        m_relay->proxy.setRefusing(true);
        m_relay->proxy.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        QTest::keyClicks(editor, QStringLiteral(" and during it"));
        const QString text = editor->toPlainText();
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        // The editor says the save waits for the relay; the outage itself is said once, in the
        // connection banner, not again in red under it.
        QTRY_VERIFY_WITH_TIMEOUT(notice->isVisible(), 10000);
        QVERIFY2(notice->text().startsWith(QStringLiteral("Your save is waiting for the relay")),
                 qPrintable(notice->text()));
        QVERIFY(!notice->text().contains(QStringLiteral("Can't reach the relay")));
        QVERIFY(notice->tone() != ui::NoticeBanner::Tone::Error);
        QCOMPARE(saveState->text(), QStringLiteral("Waiting for the relay"));
        QSignalSpy loaded(pane->session(), &canvas::CanvasSession::loadFinished);
        child<QAction>(window, "reloadAction")->trigger(); // F5 meanwhile: no second wording
        QVERIFY(loaded.wait(10000));
        QVERIFY(!loadError->isVisible());
        QCOMPARE(editor->toPlainText(), text);

        // Back: nobody touches the app; the save goes out by itself and the notice goes.
        m_relay->proxy.setRefusing(false);
        QVERIFY(UiTestHarness::waitSaved(pane, 15000));
        QCOMPARE(pane->head()->content, text);
        QTRY_VERIFY_WITH_TIMEOUT(!notice->isVisible() || notice->text() == QStringLiteral("Saved."),
                                 10000);
        QVERIFY(!banner->isVisible());
        QCOMPARE(revisionsWith(text), 1);
    }

    void saveWhoseAnswerWasLostInAnOutageIsCheckedAndSentOnceWhenBack()
    {
        QVERIFY(startRelay());
        UiTestHarness harness;
        auto *session = harness.openSessionOn(QStringLiteral("lost"), relayUrl(), quickTiming());
        QVERIFY(session);
        QVERIFY(canvasOpen(session, m_channel));
        QWidget *window = session->window();
        auto *pane = session->window()->canvasPane();
        auto *notice = child<ui::NoticeBanner>(window, "saveNotice");
        auto *editor = child<QPlainTextEdit>(window, "canvasEditor");
        pane->startEditing();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClicks(editor, QStringLiteral("sent as the network went down"));
        const QString text = editor->toPlainText();

        // The signed event is on its way when the network goes: its fate is unknown.
        m_relay->proxy.injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(m_relay->proxy.isHolding(), 10000);
        m_relay->proxy.setRefusing(true);
        m_relay->proxy.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(
            pane->session()->state() == canvas::CanvasSession::State::OutcomeUnknown, 15000);
        QTRY_VERIFY(notice->isVisible());
        QVERIFY2(
            notice->text().contains(QStringLiteral("As soon as the relay answers it is checked")),
            qPrintable(notice->text()));
        auto &log = *session->services().connection->requestLog();
        const int before = int(log.entries().size());

        // Back: first a strong existence check, then the very same event — one revision.
        m_relay->proxy.setRefusing(false);
        QVERIFY(UiTestHarness::waitSaved(pane, 15000));
        QCOMPARE(pane->head()->content, text);
        bool checked = false;
        for (int i = before; i < int(log.entries().size()); ++i) {
            const auto &entry = log.entries()[std::size_t(i)];
            if (entry.caller == QLatin1String("canvas_existence")) {
                QVERIFY(entry.strong);
                checked = true;
            }
        }
        QVERIFY(checked);
        QCOMPARE(revisionsWith(text), 1);
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
