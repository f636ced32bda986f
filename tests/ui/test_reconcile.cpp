// The client reconciles what it sees: the header, the canvas and History never disagree about
// which revision is current. A relay may miss delivering a revision to the live subscription (the
// gap a lagging replica opens, docs/buzz-protocol.md §Read consistency); here the recording proxy
// makes it so by closing every canvas subscription before the relay answers it. Then a History
// page, a search result or the re-check once the staleness budget has passed still brings the
// open canvas up to date, as the live banner would have.

#include "CanvasTestSupport.h"
#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasSession.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/SearchPanel.h"
#include "ui/models/HistoryModel.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

using namespace buzz;
using namespace std::chrono_literals;
using test::UiTestHarness;

class ReconcileTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::unique_ptr<test::CanvasClient> m_other;
    relay::test::TestIdentity m_owner;
    QString m_channel;

    // A relay whose canvas subscriptions never deliver anything (closed as "restricted" before the
    // relay's answer gets through), with a channel holding `first`.
    bool startDeafRelay(const QString &first)
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        if (!m_relay->start())
            return false;
        m_channel = QString::fromStdString(m_relay->relay->createChannel(m_owner, "general"));
        connect(&m_relay->proxy, &test::RecordingProxy::subscriptionOpened, this, [this] {
            m_relay->proxy.closeSubscriptions("40100", QStringLiteral("restricted: test"));
        });
        m_other = std::make_unique<test::CanvasClient>(m_relay->proxy.url());
        return save(first);
    }
    bool save(const QString &text)
    {
        auto head = test::await(m_other->service->head(m_channel, canvas::ReadIntent::Strong));
        return head && test::await(m_other->service->save(m_channel, *head, text)).isSaved();
    }
    desktop::DesktopSession *open(UiTestHarness &harness, const QString &profile,
                                  std::chrono::milliseconds recheckAfter)
    {
        auto *session = harness.openSessionOn(profile, m_relay->proxy.url().toString());
        if (!session)
            return nullptr;
        session->services().canvas->setStaleRecheckAfter(recheckAfter);
        auto *pane = session->window()->canvasPane();
        if (!QTest::qWaitFor([&] { return pane->channelId() == m_channel && pane->isHeadKnown(); },
                             10000))
            return nullptr;
        return session;
    }
    static QString headText(ui::CanvasPane *pane)
    {
        return pane->head() ? pane->head()->content : QString();
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup()
    {
        m_other.reset();
        m_relay.reset();
    }

    void aNewerRevisionInHistoryBecomesCurrent()
    {
        QVERIFY(startDeafRelay(QStringLiteral("first version\n")));
        UiTestHarness harness;
        auto *session = open(harness, QStringLiteral("alice"), 10min); // History, not the re-check
        QVERIFY(session);
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QCOMPARE(headText(pane), QStringLiteral("first version\n"));

        QVERIFY(save(QStringLiteral("second version\n"))); // never delivered live
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 10000);
        // History lists it on top: the session adopts it, so header, canvas and badge agree.
        QTRY_COMPARE_WITH_TIMEOUT(headText(pane), QStringLiteral("second version\n"), 5000);
        QVERIFY(model->data(model->index(0), ui::HistoryModel::IsCurrentRole).toBool());
        QVERIFY(!model->data(model->index(1), ui::HistoryModel::IsCurrentRole).toBool());
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY(view->toPlainText().contains(QStringLiteral("second version")));
        auto *info = window->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
        QVERIFY(info->toolTip().contains(pane->head()->eventId));
    }

    void aNewerRevisionInSearchBecomesCurrentAndIsAnnouncedWhileEditing()
    {
        QVERIFY(startDeafRelay(QStringLiteral("plain start\n")));
        UiTestHarness harness;
        auto *session = open(harness, QStringLiteral("bob"), 10min);
        QVERIFY(session);
        auto *window = session->window();
        auto *pane = window->canvasPane();
        pane->startEditing();
        QTRY_VERIFY(pane->isEditing());

        QVERIFY(save(QStringLiteral("plain start\nzeppelin landing\n")));
        auto *query = window->findChild<QLineEdit *>(QStringLiteral("searchQueryEdit"));
        window->searchDock()->show();
        window->searchPanel()->search(QStringLiteral("zeppelin"));
        QTRY_COMPARE_WITH_TIMEOUT(headText(pane), QStringLiteral("plain start\nzeppelin landing\n"),
                                  10000);
        // While editing, the newer revision is announced as a live change would be.
        auto *live = window->findChild<ui::NoticeBanner *>(QStringLiteral("liveChangeBanner"));
        QTRY_VERIFY(live->isVisible());
        QVERIFY(pane->isEditing());
        QVERIFY(query);
    }

    void aCanvasOpenedFromARoutedReadIsRecheckedAfterTheBudget()
    {
        QVERIFY(startDeafRelay(QStringLiteral("as opened\n")));
        UiTestHarness harness;
        // The documented default: the relay does not say its budget.
        auto *session = open(harness, QStringLiteral("carol"),
                             canvas::CanvasService::kDefaultStaleRecheckAfter);
        QVERIFY(session);
        auto *pane = session->window()->canvasPane();
        QVERIFY(save(QStringLiteral("saved right after the open\n")));
        QElapsedTimer elapsed;
        elapsed.start();
        // Nothing else tells this window (no subscription, History and Search closed).
        QTRY_COMPARE_WITH_TIMEOUT(headText(pane), QStringLiteral("saved right after the open\n"),
                                  20000);
        qInfo("caught up %lld ms after the save", elapsed.elapsed());
        const auto &entries = session->services().connection->requestLog()->entries();
        const bool rechecked = std::any_of(entries.begin(), entries.end(), [](const auto &entry) {
            return entry.caller == QLatin1String("canvas_head_recheck") && entry.strong;
        });
        QVERIFY(rechecked);
    }
};

QTEST_MAIN(ReconcileTest)
#include "test_reconcile.moc"
