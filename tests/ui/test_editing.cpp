// Editing keys (issue 19): find and replace inside the editor (Ctrl+F there; the window's search
// keeps Ctrl+Shift+F, and Ctrl+F elsewhere), undo that survives a save, Help → Keyboard Shortcuts.

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
#include <QStandardPaths>
#include <QTest>

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
        QTRY_VERIFY_WITH_TIMEOUT(!pane->isEditing(), 10000);
        QCOMPARE(pane->head()->content, QStringLiteral("first second"));

        pane->startEditing();
        QTRY_VERIFY(pane->isEditing());
        QCOMPARE(editor->toPlainText(), QStringLiteral("first second"));
        QVERIFY(editor->document()->isUndoAvailable());
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->toPlainText(), QStringLiteral("first"));
        QVERIFY(pane->hasUnsavedChanges()); // back to the old text is a change from the head
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
