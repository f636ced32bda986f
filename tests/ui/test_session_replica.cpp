// The open canvas behind a paused read replica: History shows your own save at once (the session
// verified it on the writer) and F5 keeps it there, and a draft started from a revision the
// replica lacks is restored against that revision read from the writer, never as "no canvas".

#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "canvas/DraftStore.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "relay/RelayEngine.h"
#include "relay/replication/sqlite/Replica.h"
#include "relay/replication/sqlite/ReplicaSet.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/models/HistoryModel.h"

#include <QAction>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class SessionReplicaTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void ownSaveIsInHistoryAtOnceBehindALaggingReplica()
    {
        UiTestHarness harness;
        QVERIFY(harness.startRelay(1, 30000)); // one replica, 30 s routing budget
        auto *replicas = harness.relay()->engine()->replicaSet();
        auto *session = harness.openSession(QStringLiteral("writer"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("lagging")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("before\n")));
        QVERIFY(replicas->waitCaughtUp(std::chrono::seconds(10)));
        replicas->replica(0).setPaused(true);

        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head() && pane->head()->content == QStringLiteral("before\n"));
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);

        QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier);
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor, QStringLiteral("after"));
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QVERIFY(UiTestHarness::waitSaved(pane));
        const QString saved = pane->head()->eventId;

        const auto topIsOursAndCurrent = [&] {
            return model->rowCount() == 2 && model->revisionAt(0)->hasId(saved)
                && model->data(model->index(0), ui::HistoryModel::IsCurrentRole).toBool();
        };
        QTRY_VERIFY_WITH_TIMEOUT(topIsOursAndCurrent(), 5000);
        // F5 re-reads History from the (still lagging) replica: our save stays listed.
        QSignalSpy loaded(window->historyPanel(), &ui::HistoryPanel::historyLoaded);
        window->findChild<QAction *>(QStringLiteral("reloadAction"))->trigger();
        QVERIFY(loaded.wait(10000));
        QVERIFY(topIsOursAndCurrent());
        QCOMPARE(model->revisionAt(1)->content, QStringLiteral("before\n"));
        replicas->replica(0).setPaused(false);
    }

    void draftOfARevisionTheReplicaLacksIsEditedAgainstIt()
    {
        UiTestHarness harness;
        QVERIFY(harness.startRelay(1, 30000));
        auto *replicas = harness.relay()->engine()->replicaSet();
        auto *session = harness.openSession(QStringLiteral("drafter"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("drafts")));
        auto *pane = session->window()->canvasPane();
        const QString channel = pane->channelId();
        QVERIFY(replicas->waitCaughtUp(std::chrono::seconds(10)));
        replicas->replica(0).setPaused(true);
        // Two revisions only the writer has; a draft left (say, by a crash) on the first.
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\n")));
        auto v1 =
            test::awaitTask(session->services().canvas->head(channel, canvas::ReadIntent::Strong));
        QVERIFY(v1 && *v1);
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\ntwo\n")));
        const auto &services = session->services();
        canvas::DraftKey key {services.draftRelayKey, services.draftCommunity, channel,
                              (*v1)->eventId};
        QVERIFY(services.drafts->store(key, QStringLiteral("one\nmine\n")));

        // Away and back: the display read comes from the replica, which has no canvas at all (the
        // canvas subscription's history may bring the newest revision meanwhile: the writer
        // serves it, the replica lacks it).
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("elsewhere")));
        QVERIFY(UiTestHarness::openChannel(session, channel));
        QVERIFY(!pane->head() || pane->head()->content == QStringLiteral("one\ntwo\n"));
        auto *banner =
            session->window()->findChild<ui::NoticeBanner *>(QStringLiteral("draftBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QTest::mouseClick(banner->action(QStringLiteral("Restore")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(pane->isEditing(), 10000);
        QVERIFY(pane->editBase());
        QCOMPARE(pane->editBase()->eventId, (*v1)->eventId); // not "no canvas"
        QCOMPARE(pane->editBase()->content, QStringLiteral("one\n"));
        const auto &entries = services.connection->requestLog()->entries();
        auto read = std::find_if(entries.rbegin(), entries.rend(), [](const auto &entry) {
            return entry.caller == QLatin1String("canvas_draft_base")
                || entry.caller == QLatin1String("canvas_revision");
        });
        QVERIFY(read != entries.rend());
        QVERIFY2(read->strong, qPrintable(read->caller));
        replicas->replica(0).setPaused(false);
    }
};

QTEST_MAIN(SessionReplicaTest)
#include "test_session_replica.moc"
