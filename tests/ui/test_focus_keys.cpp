// Focus, keys and dialogs (issue 19): focus goes to the canvas after start, save, join and merge;
// the window's shortcuts work from any field; Esc clears the channel filter; the merge dialog
// treats a hand edit of the result as a resolution; Enter in the restore dialog cancels.

#include "UiTestHarness.h"

#include "canvas/Identity.h"
#include "ui/CanvasPane.h"
#include "ui/ConflictDialog.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/RestoreDialog.h"
#include "ui/models/HistoryModel.h"

#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

namespace {

// What QLineEdit and QPlainTextEdit do with the X11 / KDE key bindings (Ctrl+E is "move to end of
// line"): they claim the key in ShortcutOverride. The offscreen platform uses the Windows bindings,
// where they do not, so the test puts the X11 behaviour back on the fields it uses.
class ClaimsCtrlE : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::ShortcutOverride) {
            auto *key = static_cast<QKeyEvent *>(event);
            if (key->key() == Qt::Key_E && key->modifiers() == Qt::ControlModifier)
                event->accept();
        }
        return false;
    }
};

QString focusName()
{
    const QWidget *focus = QApplication::focusWidget();
    return focus ? focus->objectName() : QStringLiteral("<none>");
}

} // namespace

class FocusKeysTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void focusStartsOnTheCanvasAndShortcutsWorkFromTheFilter()
    {
        UiTestHarness harness;
        auto *seeder = harness.openSession(QStringLiteral("seeder"));
        QVERIFY(seeder);
        QVERIFY(UiTestHarness::createChannel(seeder, QStringLiteral("notes")));
        QVERIFY(UiTestHarness::seedRevision(seeder, QStringLiteral("# Notes\n\nhello\n")));
        harness.closeSession(seeder);

        // A fresh start of the same profile: the first canvas is shown and has the focus.
        auto *session = harness.openSession(QStringLiteral("seeder"));
        QVERIFY(session);
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QVERIFY(UiTestHarness::waitCanvasReady(pane));
        QTRY_COMPARE(focusName(), QStringLiteral("canvasView"));

        // Ctrl+E typed in the channel filter edits (QLineEdit would take it as "end of line").
        auto *filter = window->findChild<QLineEdit *>(QStringLiteral("channelFilterEdit"));
        ClaimsCtrlE x11Bindings;
        filter->installEventFilter(&x11Bindings);
        window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"))
            ->installEventFilter(&x11Bindings);
        filter->setFocus();
        QTRY_COMPARE(focusName(), QStringLiteral("channelFilterEdit"));
        QTest::keyClick(filter, Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(pane->isEditing());
        QTRY_COMPARE(focusName(), QStringLiteral("canvasEditor"));
        // ... and Ctrl+E in the editor (the same "end of line" key there) leaves editing.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(!pane->isEditing());

        // Esc clears the filter and leaves the window's Esc alone while it does.
        filter->setFocus();
        QTest::keyClicks(filter, QStringLiteral("zz"));
        auto *list = window->findChild<QListView *>(QStringLiteral("channelList"));
        QCOMPARE(list->model()->rowCount(), 0);
        QTest::keyClick(filter, Qt::Key_Escape);
        QCOMPARE(filter->text(), QString());
        QCOMPARE(list->model()->rowCount(), 1);
    }

    void focusReturnsToTheCanvasAfterSaveJoinAndMerge()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        auto *bob = harness.openSession(QStringLiteral("bob"));
        QVERIFY(alice && bob);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("plans")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("title\nshared line\nend\n")));
        const QString channel = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::openChannel(bob, channel));
        auto *bobWindow = bob->window();
        auto *bobPane = bobWindow->canvasPane();
        UiTestHarness::activate(bobWindow);

        // Join from the read-only notice: its button disappears, focus goes to the canvas.
        auto *join = bobWindow->findChild<ui::NoticeBanner *>(QStringLiteral("readOnlyNotice"));
        QVERIFY(join && join->isVisible());
        QTest::mouseClick(join->action(QStringLiteral("Join")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(bobPane->channel().isMember, 10000);
        QTRY_COMPARE(focusName(), QStringLiteral("canvasView"));

        // Save with the header's button: the canvas, not the channel filter, has focus after.
        bobPane->startEditing();
        auto *editor = bobWindow->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_COMPARE(focusName(), QStringLiteral("canvasEditor"));
        editor->setPlainText(QStringLiteral("title\nbob's line\nend\n"));
        auto *saveButton = bobWindow->findChild<QPushButton *>(QStringLiteral("saveButton"));
        QTest::mouseClick(saveButton, Qt::LeftButton);
        QVERIFY(UiTestHarness::waitSaved(bobPane));
        QTRY_COMPARE(focusName(), QStringLiteral("canvasEditor")); // typing goes on after a save

        // A conflict: Alice saved meanwhile. After the merge dialog, typing goes to the canvas.
        bobPane->startEditing();
        editor->setPlainText(QStringLiteral("title\nbob's second line\nend\n"));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("title\nalice's line\nend\n")));
        auto *filter = bobWindow->findChild<QLineEdit *>(QStringLiteral("channelFilterEdit"));
        filter->setFocus(); // where focus used to end up
        bobPane->save();
        auto *dialog = qobject_cast<ui::ConflictDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog")));
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("useMineButton")),
                          Qt::LeftButton);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("acceptMergeButton")),
                          Qt::LeftButton);
        QVERIFY(UiTestHarness::waitSaved(bobPane));
        UiTestHarness::activate(bobWindow);
        QTRY_VERIFY(focusName() == QStringLiteral("canvasView")
                    || focusName() == QStringLiteral("canvasEditor"));
        QCOMPARE(filter->text(), QString());
    }

    void aHandEditOfTheMergeResultIsAResolution()
    {
        ui::ConflictDialog::Input input;
        input.baseText = QStringLiteral("a\nshared\nz\n");
        input.mineText = QStringLiteral("a\nmine\nz\n");
        input.theirsText = QStringLiteral("a\ntheirs\nz\n");
        input.theirsAuthor = QStringLiteral("Alice");
        input.theirsTime = QStringLiteral("now");
        ui::ConflictDialog dialog(input);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *accept = dialog.findChild<QPushButton *>(QStringLiteral("acceptMergeButton"));
        auto *result = dialog.findChild<QPlainTextEdit *>(QStringLiteral("mergedResultEdit"));
        QCOMPARE(dialog.conflictCount(), 1);
        QVERIFY(!accept->isEnabled());

        // Typing a result without the markers resolves the conflict by hand.
        result->setFocus();
        result->selectAll();
        result->insertPlainText(QStringLiteral("a\nwritten by hand\nz\n")); // as a paste
        QTest::keyClicks(result, QStringLiteral("."));
        QTest::keyClick(result, Qt::Key_Backspace);
        QVERIFY(dialog.isResultEditedByHand());
        QVERIFY(accept->isEnabled());

        // "Use theirs" asks before it replaces the hand edit; Keep leaves it as it is.
        auto *confirm =
            dialog.findChild<ui::NoticeBanner *>(QStringLiteral("mergeOverwriteConfirm"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("useTheirsButton")),
                          Qt::LeftButton);
        QVERIFY(confirm->isVisible());
        QCOMPARE(result->toPlainText(), QStringLiteral("a\nwritten by hand\nz\n"));
        QTest::mouseClick(confirm->action(QStringLiteral("Keep")), Qt::LeftButton);
        QVERIFY(!confirm->isVisible());
        QCOMPARE(result->toPlainText(), QStringLiteral("a\nwritten by hand\nz\n"));
        QVERIFY(accept->isEnabled());
        // "Take theirs" asks too.
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("takeTheirsButton")),
                          Qt::LeftButton);
        QVERIFY(confirm->isVisible());
        QVERIFY(dialog.isVisible());
        QTest::mouseClick(confirm->action(QStringLiteral("Keep")), Qt::LeftButton);

        // Replace applies the choice.
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("useTheirsButton")),
                          Qt::LeftButton);
        QTest::mouseClick(confirm->action(QStringLiteral("Replace")), Qt::LeftButton);
        QCOMPARE(result->toPlainText(), QStringLiteral("a\ntheirs\nz\n"));
        QVERIFY(!dialog.isResultEditedByHand());

        // Saving the hand edit saves exactly that text.
        result->selectAll();
        result->insertPlainText(QStringLiteral("final\n"));
        QTest::mouseClick(accept, Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.resolution(), ui::ConflictDialog::Resolution::Merged);
        QCOMPARE(dialog.resultText(), QStringLiteral("final\n"));
    }

    void aResultWithMarkersLeftIsNotSaved()
    {
        ui::ConflictDialog::Input input;
        input.baseText = QStringLiteral("x\n");
        input.mineText = QStringLiteral("mine\n");
        input.theirsText = QStringLiteral("theirs\n");
        ui::ConflictDialog dialog(input);
        dialog.show();
        auto *accept = dialog.findChild<QPushButton *>(QStringLiteral("acceptMergeButton"));
        auto *result = dialog.findChild<QPlainTextEdit *>(QStringLiteral("mergedResultEdit"));
        result->moveCursor(QTextCursor::End);
        QTest::keyClicks(result, QStringLiteral("more"));
        QVERIFY(dialog.isResultEditedByHand());
        QVERIFY(!accept->isEnabled()); // <<<<<<< mine ... >>>>>>> theirs still there
    }

    void theRestoredNoticeOutlivesTheHistoryReload()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("restorer"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("specs")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("old\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("new\n")));
        auto *window = session->window();
        window->historyDock()->show();
        auto *history = window->historyPanel();
        QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 2, 10000);
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        list->setCurrentIndex(list->model()->index(1, 0));
        QTest::mouseClick(window->findChild<QPushButton *>(QStringLiteral("restoreButton")),
                          Qt::LeftButton);
        QWidget *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog"));
        QVERIFY(dialog);
        QSignalSpy reloaded(history, &ui::HistoryPanel::historyLoaded);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("restoreConfirmButton")),
                          Qt::LeftButton);
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("historyNotice"));
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Restored."), 10000);
        // The list is read again after the restore, re-selecting the same row: "Restored." stays.
        // (Twice: the settled restore and the new head each ask for the first page.)
        QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() >= 2 && history->model()->rowCount() == 3, 10000);
        QVERIFY(notice->isVisible());
    }

    void enterInTheRestoreDialogCancels()
    {
        ui::RestoreDialog dialog(QStringLiteral("Alice"), QStringLiteral("10:00"),
                                 QStringLiteral("abc"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QApplication::setActiveWindow(&dialog);
        QTRY_COMPARE(focusName(), QStringLiteral("restoreCancelButton"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(!dialog.isVisible());

        // Even with focus moved to Restore by Tab, Enter stays the default (Cancel) and Space
        // presses the focused button.
        ui::RestoreDialog again(QStringLiteral("Alice"), QStringLiteral("10:00"),
                                QStringLiteral("abc"));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QApplication::setActiveWindow(&again);
        auto *restore = again.findChild<QPushButton *>(QStringLiteral("restoreConfirmButton"));
        restore->setFocus();
        QTest::keyClick(restore, Qt::Key_Return);
        QCOMPARE(again.result(), int(QDialog::Rejected));
    }
};

QTEST_MAIN(FocusKeysTest)
#include "test_focus_keys.moc"
