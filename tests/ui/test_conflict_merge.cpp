// Two app instances (two profiles = two identities) on one relay: a conflict that is merged and
// saved, Cancel keeping the editor untouched, and the live "Changed by" banner.

#include "RecordingProxy.h"
#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "canvas/Identity.h"
#include "canvas/ProfileCache.h"
#include "ui/CanvasPane.h"
#include "ui/ConflictDialog.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class ConflictMergeTest : public QObject
{
    Q_OBJECT

    struct Pair
    {
        desktop::DesktopSession *alice = nullptr;
        desktop::DesktopSession *bob = nullptr;
    };

    // Alice creates a channel with a canvas; Bob (another identity) joins it from the UI.
    static bool setUp(UiTestHarness &harness, Pair &pair, const QString &text)
    {
        pair.alice = harness.openSession(QStringLiteral("alice"));
        pair.bob = harness.openSession(QStringLiteral("bob"));
        if (!pair.alice || !pair.bob)
            return false;
        if (pair.alice->services().identity->npub() == pair.bob->services().identity->npub())
            return false;
        if (!UiTestHarness::createChannel(pair.alice, QStringLiteral("plans")))
            return false;
        if (!UiTestHarness::seedRevision(pair.alice, text))
            return false;
        const QString channel = pair.alice->window()->canvasPane()->channelId();
        if (!UiTestHarness::openChannel(pair.bob, channel))
            return false;
        auto *bobPane = pair.bob->window()->canvasPane();
        if (bobPane->channel().isMember)
            return false; // must start read-only
        auto *join =
            pair.bob->window()->findChild<ui::NoticeBanner *>(QStringLiteral("readOnlyNotice"));
        if (!join || !join->isVisible())
            return false;
        QTest::mouseClick(join->action(QStringLiteral("Join")), Qt::LeftButton);
        return QTest::qWaitFor([bobPane] { return bobPane->channel().isMember; }, 10000)
            && QTest::qWaitFor(
                   [bobPane, text] { return bobPane->head() && bobPane->head()->content == text; },
                   10000);
    }

    static QPlainTextEdit *editor(desktop::DesktopSession *session)
    {
        return session->window()->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
    }

    static void replaceAll(desktop::DesktopSession *session, const QString &from, const QString &to)
    {
        auto *edit = editor(session);
        edit->setPlainText(edit->toPlainText().replace(from, to));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void concurrentEditsMergeCleanlyAndSaveAgainstTheirs()
    {
        UiTestHarness harness;
        Pair pair;
        QVERIFY(setUp(harness, pair, QStringLiteral("alpha\nbeta\ngamma\n")));
        auto *alicePane = pair.alice->window()->canvasPane();
        auto *bobPane = pair.bob->window()->canvasPane();

        // Both start editing the same revision.
        alicePane->startEditing();
        bobPane->startEditing();
        QVERIFY(alicePane->isEditing() && bobPane->isEditing());
        replaceAll(pair.alice, QStringLiteral("alpha"), QStringLiteral("ALPHA"));
        replaceAll(pair.bob, QStringLiteral("gamma"), QStringLiteral("GAMMA"));

        // Alice saves first.
        UiTestHarness::activate(pair.alice->window());
        QTest::keyClick(editor(pair.alice), Qt::Key_S, Qt::ControlModifier);
        QVERIFY(UiTestHarness::waitSaved(alicePane));
        const QString aliceRevision = alicePane->head()->eventId;
        const QString aliceKey = alicePane->head()->author;

        // Bob sees the live banner while editing, then saves: the relay's CAS says conflict.
        auto *banner =
            pair.bob->window()->findChild<ui::NoticeBanner *>(QStringLiteral("liveChangeBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QVERIFY(banner->text().startsWith(QStringLiteral("Changed by npub1")));
        UiTestHarness::activate(pair.bob->window());
        QTest::keyClick(editor(pair.bob), Qt::Key_S, Qt::ControlModifier);
        auto *dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        QVERIFY(dialog->merge().clean());
        QCOMPARE(dialog->resultText(), QStringLiteral("ALPHA\nbeta\nGAMMA\n"));
        QCOMPARE(editor(pair.bob)->toPlainText(),
                 QStringLiteral("alpha\nbeta\nGAMMA\n")); // untouched until accepted

        auto *accept = dialog->findChild<QPushButton *>(QStringLiteral("acceptMergeButton"));
        QVERIFY(accept && accept->isEnabled());
        QTest::mouseClick(accept, Qt::LeftButton);
        QVERIFY(UiTestHarness::waitSaved(bobPane));
        auto *notice =
            pair.bob->window()->findChild<ui::NoticeBanner *>(QStringLiteral("saveNotice"));
        QCOMPARE(notice->text(), QStringLiteral("Saved."));

        // The merged save was a CAS against Alice's revision: it is the head and builds on it.
        auto head = test::awaitTask(
            pair.bob->services().canvas->head(bobPane->channelId(), canvas::ReadIntent::Strong));
        QVERIFY(head && head.value());
        QCOMPARE(head.value()->content, QStringLiteral("ALPHA\nbeta\nGAMMA\n"));
        QCOMPARE(head.value()->expectedRevision.value_or(QString()), aliceRevision);
        // ... and says it is a merge with Alice's revision, which History shows.
        QVERIFY(head.value()->label);
        QCOMPARE(head.value()->label->kind, canvas::RevisionLabel::Kind::Merge);
        QCOMPARE(head.value()->label->revisionId, aliceRevision);
        QCOMPARE(head.value()->label->author, aliceKey);
        pair.bob->window()->historyDock()->show();
        auto *history = pair.bob->window()->historyPanel()->model();
        QTRY_VERIFY_WITH_TIMEOUT(history->rowCount() >= 3 && history->revisionAt(0)->label, 10000);
        QCOMPARE(history->data(history->index(0), ui::HistoryModel::LabelRole).toString(),
                 QStringLiteral("Merged with %1's change")
                     .arg(ui::UiFormat::personName(pair.bob->services().profiles, aliceKey)));
        // Alice, not editing, follows silently.
        QTRY_VERIFY_WITH_TIMEOUT(alicePane->head()
                                     && alicePane->head()->content
                                         == QStringLiteral("ALPHA\nbeta\nGAMMA\n"),
                                 10000);
    }

    void conflictingHunkCancelKeepsEditorThenResolvedSideBySide()
    {
        UiTestHarness harness;
        Pair pair;
        QVERIFY(setUp(harness, pair, QStringLiteral("title\nshared line\nend\n")));
        auto *alicePane = pair.alice->window()->canvasPane();
        auto *bobPane = pair.bob->window()->canvasPane();
        bobPane->startEditing();
        replaceAll(pair.bob, QStringLiteral("shared line"), QStringLiteral("bob's line"));
        QVERIFY(
            UiTestHarness::seedRevision(pair.alice, QStringLiteral("title\nalice's line\nend\n")));
        QTRY_VERIFY(alicePane->head()->content.contains(QStringLiteral("alice's line")));

        const QString bobText = editor(pair.bob)->toPlainText();
        bobPane->save();
        auto *dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        QCOMPARE(dialog->conflictCount(), 1);
        QVERIFY(
            !dialog->findChild<QPushButton *>(QStringLiteral("acceptMergeButton"))->isEnabled());
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("cancelMergeButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        // Cancel: exactly as it was, still editing, nothing saved.
        QVERIFY(bobPane->isEditing());
        QCOMPARE(editor(pair.bob)->toPlainText(), bobText);
        auto *notice =
            pair.bob->window()->findChild<ui::NoticeBanner *>(QStringLiteral("saveNotice"));
        QCOMPARE(notice->text(),
                 QStringLiteral("This canvas changed since you loaded it — reload to see the "
                                "latest, then reapply your edit."));

        // Merge again from the notice and take both lines.
        QTest::mouseClick(notice->action(QStringLiteral("Merge")), Qt::LeftButton);
        dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("useBothButton")),
                          Qt::LeftButton);
        QCOMPARE(dialog->unresolvedCount(), 0);
        QCOMPARE(dialog->resultText(), QStringLiteral("title\nbob's line\nalice's line\nend\n"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("acceptMergeButton")),
                          Qt::LeftButton);
        QVERIFY(UiTestHarness::waitSaved(bobPane));
        QCOMPARE(bobPane->head()->content,
                 QStringLiteral("title\nbob's line\nalice's line\nend\n"));
        // Undo history still holds Bob's own text (nothing was lost by merging).
    }

    void theirNameReplacesTheNpubWhenItArrives()
    {
        // Bob has never seen Alice's profile when her revision beats his save: the dialog opens
        // with her npub and names her as soon as the profile arrives.
        UiTestHarness harness;
        QVERIFY(harness.startProxiedRelay());
        auto *alice = harness.openSession(QStringLiteral("alice"));
        auto *bob = harness.openSession(QStringLiteral("bob"));
        QVERIFY(alice && bob);
        QVERIFY(test::awaitTask(
            alice->services().profiles->publishDisplayName(QStringLiteral("Alice Example"))));
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("plans")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("one\ntwo\n")));
        // Bob's first read of Alice's profile waits at the proxy.
        const QByteArray aliceHex = alice->services().identity->publicKeyHex().toLatin1();
        harness.proxy()->injectFault(test::RecordingProxy::Fault::Hold,
                                     [aliceHex](const test::RecordingProxy::Request &request) {
                                         return request.body.contains("\"kinds\":[0]")
                                             && request.body.contains(aliceHex);
                                     });
        QVERIFY(UiTestHarness::openChannel(bob, alice->window()->canvasPane()->channelId()));
        QTRY_VERIFY_WITH_TIMEOUT(harness.proxy()->isHolding(), 10000);

        auto *bobPane = bob->window()->canvasPane();
        bobPane->startEditing();
        QTRY_VERIFY(bobPane->isEditing());
        replaceAll(bob, QStringLiteral("two"), QStringLiteral("bob's two"));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("one\nalice's two\n")));
        bobPane->save();
        auto *dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        auto *summary = dialog->findChild<QLabel *>(QStringLiteral("conflictSummaryLabel"));
        QVERIFY2(summary->text().contains(QStringLiteral("npub1")), qPrintable(summary->text()));

        harness.proxy()->release();
        QTRY_VERIFY_WITH_TIMEOUT(
            summary->text().contains(QStringLiteral("Alice Example saved a newer revision")),
            10000);
        QVERIFY(summary->toolTip().contains(alice->services().identity->npub()));
        bool titled = false;
        for (auto *box : dialog->findChildren<QGroupBox *>())
            titled = titled || box->title() == QStringLiteral("Theirs — Alice Example");
        QVERIFY(titled);
        dialog->reject();
    }

    void takeTheirsKeepsMineInUndo()
    {
        UiTestHarness harness;
        Pair pair;
        QVERIFY(setUp(harness, pair, QStringLiteral("a\n")));
        auto *bobPane = pair.bob->window()->canvasPane();
        bobPane->startEditing();
        replaceAll(pair.bob, QStringLiteral("a"), QStringLiteral("bob"));
        QVERIFY(UiTestHarness::seedRevision(pair.alice, QStringLiteral("alice\n")));
        auto *banner =
            pair.bob->window()->findChild<ui::NoticeBanner *>(QStringLiteral("liveChangeBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QTest::mouseClick(banner->action(QStringLiteral("Merge")), Qt::LeftButton);
        auto *dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("takeTheirsButton")),
                          Qt::LeftButton);
        QTRY_COMPARE(editor(pair.bob)->toPlainText(), QStringLiteral("alice\n"));
        QVERIFY(bobPane->isEditing());
        QCOMPARE(bobPane->editBase()->content, QStringLiteral("alice\n")); // base moved to theirs
        editor(pair.bob)->undo();
        QCOMPARE(editor(pair.bob)->toPlainText(), QStringLiteral("bob\n"));
    }
};

QTEST_MAIN(ConflictMergeTest)
#include "test_conflict_merge.moc"
