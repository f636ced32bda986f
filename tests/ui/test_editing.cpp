// Editing keys (issue 19): find and replace inside the editor (Ctrl+F there; the window's search
// keeps Ctrl+Shift+F, and Ctrl+F elsewhere), undo that survives a save, Help → Keyboard Shortcuts.
// Saving keeps the editor open with the caret and scroll where they were, and Esc closes the find
// bar before anything else, wherever focus is in the editor (issue 29).

#include "UiTestHarness.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/FindBar.h"
#include "ui/MainWindow.h"
#include "ui/ShortcutsDialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>

using namespace buzz;
using test::UiTestHarness;

class EditingTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void findAndReplaceInTheEditor()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("finder"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("find")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("cat dog\nCat bird\ncat\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head().has_value());
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY(editor->hasFocus());

        // Ctrl+F in the editor opens its find bar, not the Search dock.
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        auto *bar = window->findChild<ui::FindBar *>(QStringLiteral("canvasFindBar"));
        QVERIFY(bar->isVisible());
        QVERIFY(!window->searchDock()->isVisible());
        auto *find = window->findChild<QLineEdit *>(QStringLiteral("findTextEdit"));
        QTRY_VERIFY(find->hasFocus());
        QTest::keyClicks(find, QStringLiteral("cat"));
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(editor->textCursor().selectionStart(), 0);
        QTest::keyClick(find, Qt::Key_Return); // case-insensitive: "Cat" on line 2
        QCOMPARE(editor->textCursor().selectionStart(), 8);
        window->findChild<QCheckBox *>(QStringLiteral("findCaseCheck"))->setChecked(true);
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(editor->textCursor().selectionStart(), 17);
        QTest::keyClick(find, Qt::Key_Return); // wraps to the first
        QCOMPARE(editor->textCursor().selectionStart(), 0);
        QCOMPARE(window->findChild<QLabel *>(QStringLiteral("findStatusLabel"))->text(),
                 QStringLiteral("Wrapped around"));

        // Esc closes the bar and returns to the text; editing goes on.
        QTest::keyClick(find, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(pane->isEditing());
        QTRY_VERIFY(editor->hasFocus());

        // Replace all (Ctrl+R opens the replace row) is one undo step, and an unsaved change.
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        auto *replace = window->findChild<QLineEdit *>(QStringLiteral("replaceTextEdit"));
        QVERIFY(replace->isVisible());
        replace->setText(QStringLiteral("fox"));
        QTest::mouseClick(window->findChild<QPushButton *>(QStringLiteral("replaceAllButton")),
                          Qt::LeftButton);
        QCOMPARE(editor->toPlainText(), QStringLiteral("fox dog\nCat bird\nfox\n"));
        QCOMPARE(window->findChild<QLabel *>(QStringLiteral("findStatusLabel"))->text(),
                 QStringLiteral("2 replaced"));
        QVERIFY(pane->hasUnsavedChanges());
        editor->undo();
        QCOMPARE(editor->toPlainText(), QStringLiteral("cat dog\nCat bird\ncat\n"));

        // The window's search is still one key away from the editor.
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(window->searchDock()->isVisible());
    }

    void undoSurvivesASave()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("undoer"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("undo")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("first")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head().has_value());
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor, QStringLiteral(" second"));
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        auto *saveState = window->findChild<QLabel *>(QStringLiteral("saveStateLabel"));
        QTRY_COMPARE_WITH_TIMEOUT(saveState->text(), QStringLiteral("Saved"), 10000);
        QCOMPARE(pane->head()->content, QStringLiteral("first second"));

        QVERIFY(pane->isEditing()); // the editor stayed open on the revision just saved
        QCOMPARE(editor->toPlainText(), QStringLiteral("first second"));
        QVERIFY(editor->document()->isUndoAvailable());
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->toPlainText(), QStringLiteral("first"));
        QVERIFY(pane->hasUnsavedChanges()); // back to the old text is a change from the head
    }

    void saveKeepsTheEditorWhereItWas()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("keeper"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("keep")));
        QString text;
        for (int line = 0; line < 400; ++line)
            text += QStringLiteral("line %1 of the plan\n").arg(line);
        QVERIFY(UiTestHarness::seedRevision(session, text));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head().has_value());
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY(editor->hasFocus());

        // The caret in the middle of a long canvas, scrolled there.
        QTextCursor cursor(editor->document()->findBlockByNumber(200));
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        editor->centerCursor();
        QTest::keyClicks(editor, QStringLiteral(" edited"));
        const int caret = editor->textCursor().position();
        const int scroll = editor->verticalScrollBar()->value();
        QVERIFY(scroll > 0);

        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        auto *saveState = window->findChild<QLabel *>(QStringLiteral("saveStateLabel"));
        QTRY_COMPARE_WITH_TIMEOUT(saveState->text(), QStringLiteral("Saved"), 10000);
        QVERIFY(pane->head()->content.contains(QStringLiteral("line 200 of the plan edited\n")));
        QVERIFY(pane->isEditing());
        QVERIFY(editor->isVisible());
        QTRY_VERIFY(editor->hasFocus());
        QCOMPARE(editor->textCursor().position(), caret);
        QCOMPARE(editor->verticalScrollBar()->value(), scroll);
        QVERIFY(!pane->hasUnsavedChanges());

        // Typing goes on at the caret: a new change on top of the revision just saved.
        QTest::keyClicks(editor, QStringLiteral(" again"));
        QVERIFY(pane->hasUnsavedChanges());
        QCOMPARE(pane->editBase()->eventId, pane->head()->eventId);
        QVERIFY(
            editor->toPlainText().contains(QStringLiteral("line 200 of the plan edited again")));
    }

    void escClosesTheFindBarFirst()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("escaper"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("esc")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("alpha\nbeta\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head().has_value());
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClicks(editor, QStringLiteral("unsaved "));
        auto *bar = window->findChild<ui::FindBar *>(QStringLiteral("canvasFindBar"));
        auto *discard = window->findChild<QWidget *>(QStringLiteral("discardConfirmBanner"));

        // Focus back in the text while the bar is open: Esc closes the bar, not the edit.
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(!discard->isVisible());
        QVERIFY(pane->isEditing());

        // Focus on one of the bar's own buttons: the same.
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        auto *caseCheck = window->findChild<QCheckBox *>(QStringLiteral("findCaseCheck"));
        caseCheck->setFocus();
        QTRY_VERIFY(caseCheck->hasFocus());
        QTest::keyClick(caseCheck, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(!discard->isVisible());
        QVERIFY(pane->isEditing());
        QTRY_VERIFY(editor->hasFocus());

        // With the bar closed, Esc is the window's again: it asks before leaving the edit.
        QTest::keyClick(editor, Qt::Key_Escape);
        QVERIFY(discard->isVisible());
        QVERIFY(pane->isEditing());
    }

    void helpListsTheKeyboardShortcuts()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("helper"));
        QVERIFY(session);
        auto *window = session->window();
        window->findChild<QAction *>(QStringLiteral("keyboardShortcutsAction"))->trigger();
        auto *dialog = qobject_cast<ui::ShortcutsDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("keyboardShortcutsDialog")));
        QVERIFY(dialog);
        const auto rows = dialog->rows();
        const auto has = [&rows](const QString &what, const QString &keys) {
            return std::any_of(rows.begin(), rows.end(), [&](const auto &row) {
                return row.first == what && row.second == keys;
            });
        };
        QVERIFY(has(QStringLiteral("Edit"), QStringLiteral("Ctrl+E")));
        QVERIFY(has(QStringLiteral("Save"), QStringLiteral("Ctrl+S")));
        QVERIFY(has(QStringLiteral("History"), QStringLiteral("Ctrl+H")));
        QVERIFY(has(QStringLiteral("Search"), QStringLiteral("Ctrl+F or Ctrl+Shift+F")));
        QVERIFY(
            has(QStringLiteral("Find in the canvas (while editing)"), QStringLiteral("Ctrl+F")));
        dialog->reject();
    }
};

QTEST_MAIN(EditingTest)
#include "test_editing.moc"
