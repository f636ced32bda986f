// A paused read replica (routing issue): display reads are served stale, yet the open canvas
// converges to the real head through its subscription, and saves read their precondition from the
// writer.

#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "relay/RelayEngine.h"
#include "relay/replication/sqlite/Replica.h"
#include "relay/replication/sqlite/ReplicaSet.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class PausedReplicaTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void staleDisplayReadsButCorrectSaves()
    {
        UiTestHarness harness;
        QVERIFY(harness.startRelay(1, 30000)); // one replica, 30 s routing budget
        auto *replicas = harness.relay()->engine()->replicaSet();
        QVERIFY(replicas && replicas->size() == 1);

        auto *writer = harness.openSession(QStringLiteral("writer"));
        QVERIFY(writer);
        QVERIFY(UiTestHarness::createChannel(writer, QStringLiteral("routed")));
        QVERIFY(UiTestHarness::seedRevision(writer, QStringLiteral("one\ntwo\nthree\n")));
        const QString channel = writer->window()->canvasPane()->channelId();
        QVERIFY(replicas->waitCaughtUp(std::chrono::seconds(10)));

        // The replica stops replaying; the writer moves on.
        replicas->replica(0).setPaused(true);
        QVERIFY(UiTestHarness::seedRevision(writer, QStringLiteral("one\ntwo\nTHREE\n")));

        // A reader opening the channel now reads the head from the paused replica (a display
        // read, stale), but its canvas subscription brings the real one: a replica serves a
        // subscription's history only once it holds every revision saved before it went live.
        auto *reader = harness.openSession(QStringLiteral("reader"));
        QVERIFY(reader);
        QVERIFY(UiTestHarness::openChannel(reader, channel));
        auto *pane = reader->window()->canvasPane();
        QTRY_VERIFY_WITH_TIMEOUT(pane->head(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(pane->head()->content, QStringLiteral("one\ntwo\nTHREE\n"),
                                  10000);
        // The live subscription may show the head before the display read answers: wait for the
        // read itself.
        const auto &entries = reader->services().connection->requestLog()->entries();
        const auto findDisplay = [&entries] {
            return std::find_if(entries.rbegin(), entries.rend(),
                                [](const client::RequestLogEntry &entry) {
                                    return entry.caller == QLatin1String("canvas_head_display");
                                });
        };
        QTRY_VERIFY(findDisplay() != entries.rend());
        const auto display = findDisplay();
        QVERIFY(!display->strong);
        QVERIFY2(display->route.startsWith(QLatin1String("replica")), qPrintable(display->route));

        // Join (open channel), edit what is shown, save: the precondition is read on the writer.
        auto *readOnly =
            reader->window()->findChild<ui::NoticeBanner *>(QStringLiteral("readOnlyNotice"));
        QTest::mouseClick(readOnly->action(QStringLiteral("Join")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(pane->channel().isMember, 10000);
        pane->startEditing();
        auto *editor =
            reader->window()->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        editor->setPlainText(QStringLiteral("ONE\ntwo\nTHREE\n"));
        pane->save();
        QVERIFY(UiTestHarness::waitSaved(pane));
        // What the reader sees now is its verified save, not the stale replica.
        QCOMPARE(pane->head()->content, QStringLiteral("ONE\ntwo\nTHREE\n"));

        auto head =
            test::awaitTask(writer->services().canvas->head(channel, canvas::ReadIntent::Strong));
        QVERIFY(head && head.value());
        QCOMPARE(head.value()->content, QStringLiteral("ONE\ntwo\nTHREE\n"));
        bool strongPrecondition = false;
        for (const auto &entry : entries)
            strongPrecondition |= entry.caller == QLatin1String("canvas_precondition")
                && entry.strong && entry.route.startsWith(QLatin1String("writer"));
        QVERIFY(strongPrecondition);
        replicas->replica(0).setPaused(false);
    }
};

QTEST_MAIN(PausedReplicaTest)
#include "test_paused_replica.moc"
