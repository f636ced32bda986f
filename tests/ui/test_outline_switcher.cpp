// Jumping through a long canvas and between channels (issue 31 item 7): View → Go to Heading
// (Ctrl+Shift+O) lists the canvas's headings and moves there, in the rendered canvas and in the
// editor; Ctrl+P switches channel with the recent ones first, remembered in the profile.

#include "UiTestHarness.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasOutline.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"

#include <QAbstractTextDocumentLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

using namespace buzz;
using test::UiTestHarness;

namespace {

constexpr int kTimeout = 30000; // a loaded machine: generous, never tight

QString longCanvas()
{
    QString text = QStringLiteral("# Intro\n\n");
    for (int i = 0; i < 80; ++i)
        text += QStringLiteral("Intro paragraph %1.\n\n").arg(i);
    text += QStringLiteral("## Setup\n\n```\n# not a heading, code\n```\n\n");
    for (int i = 0; i < 80; ++i)
        text += QStringLiteral("Setup paragraph %1.\n\n").arg(i);
    text += QStringLiteral("## Usage ##\n\n");
    for (int i = 0; i < 120; ++i)
        text += QStringLiteral("Usage paragraph %1.\n\n").arg(i);
    text += QStringLiteral("Appendix\n===\n\nThe end.\n");
    return text;
}

QStringList rows(QListWidget *list)
{
    QStringList texts;
    for (int row = 0; row < list->count(); ++row)
        texts << list->item(row)->text();
    return texts;
}

int lineOf(const QString &text, const QString &line)
{
    return int(text.split(QLatin1Char('\n')).indexOf(line));
}

} // namespace

class OutlineSwitcherTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void headingsOfMarkdown()
    {
        QStringList titles;
        QList<int> levels;
        for (const auto &heading : ui::CanvasOutline::headings(longCanvas())) {
            titles << heading.title;
            levels << heading.level;
        }
        QCOMPARE(titles,
                 (QStringList {QStringLiteral("Intro"), QStringLiteral("Setup"),
                               QStringLiteral("Usage"), QStringLiteral("Appendix")}));
        QCOMPARE(levels, (QList<int> {1, 2, 2, 1}));
        // Not headings: no space after '#', seven '#', a list item over "---", indented code.
        QVERIFY(ui::CanvasOutline::headings(
                    QStringLiteral("#tag\n####### x\n- item\n---\n    # code\n"))
                    .isEmpty());
    }

    void goToHeadingInTheCanvasAndTheEditor()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("outliner"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("long")));
        const QString text = longCanvas();
        QVERIFY(UiTestHarness::seedRevision(session, text));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_COMPARE_WITH_TIMEOUT(pane->head() ? pane->head()->content : QString(), text, kTimeout);
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isVisible(), kTimeout);
        view->setFocus();

        QTest::keyClick(view, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
        QWidget *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("outlineDialog"), kTimeout);
        QVERIFY(dialog);
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("outlineList"));
        auto *filter = dialog->findChild<QLineEdit *>(QStringLiteral("outlineFilterEdit"));
        QVERIFY(list && filter);
        QVERIFY(!list->accessibleName().isEmpty() && !filter->accessibleName().isEmpty());
        QCOMPARE(rows(list),
                 (QStringList {QStringLiteral("Intro"), QStringLiteral("  Setup"),
                               QStringLiteral("  Usage"), QStringLiteral("Appendix")}));
        QTRY_VERIFY_WITH_TIMEOUT(filter->hasFocus(), kTimeout);
        QTest::keyClicks(filter, QStringLiteral("usa"));
        QCOMPARE(rows(list), QStringList {QStringLiteral("  Usage")});
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), kTimeout);
        QVERIFY(UiTestHarness::activate(window)); // a window manager would (offscreen: none)

        // The rendered canvas scrolled to the heading, with the caret on it.
        QCOMPARE(view->textCursor().block().text(), QStringLiteral("Usage"));
        const QRectF box =
            view->document()->documentLayout()->blockBoundingRect(view->textCursor().block());
        QVERIFY(box.top() > 0);
        QCOMPARE(view->verticalScrollBar()->value(),
                 qMin(int(box.top()), view->verticalScrollBar()->maximum()));
        QVERIFY(view->verticalScrollBar()->value() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->hasFocus(), kTimeout);

        // While editing it lists the editor's headings (typed ones too) and moves the caret.
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY_WITH_TIMEOUT(editor->hasFocus(), kTimeout);
        editor->moveCursor(QTextCursor::End);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("## Added"));
        editor->moveCursor(QTextCursor::Start);
        QTest::keyClick(editor, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
        dialog = UiTestHarness::waitForTopLevel(QStringLiteral("outlineDialog"), kTimeout);
        QVERIFY(dialog);
        list = dialog->findChild<QListWidget *>(QStringLiteral("outlineList"));
        filter = dialog->findChild<QLineEdit *>(QStringLiteral("outlineFilterEdit"));
        QCOMPARE(list->count(), 5);
        QCOMPARE(list->item(4)->text(), QStringLiteral("  Added"));
        // Down from the filter moves through the list; Enter goes to the selected heading.
        QTRY_VERIFY_WITH_TIMEOUT(filter->hasFocus(), kTimeout);
        QTest::keyClick(filter, Qt::Key_Down);
        QCOMPARE(list->currentRow(), 1);
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), kTimeout);
        QVERIFY(UiTestHarness::activate(window)); // a window manager would (offscreen: none)
        QCOMPARE(editor->textCursor().blockNumber(), lineOf(text, QStringLiteral("## Setup")));
        QVERIFY(editor->viewport()->rect().contains(editor->cursorRect().center()));
        QTRY_VERIFY_WITH_TIMEOUT(editor->hasFocus(), kTimeout);
        QVERIFY(!pane->editor()->text().contains(QStringLiteral("Setup\n\n\n"))); // nothing typed

        // Esc closes it and nothing moves.
        QTest::keyClick(editor, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
        dialog = UiTestHarness::waitForTopLevel(QStringLiteral("outlineDialog"), kTimeout);
        QVERIFY(dialog);
        QTest::keyClick(dialog->findChild<QLineEdit *>(QStringLiteral("outlineFilterEdit")),
                        Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), kTimeout);
        QVERIFY(UiTestHarness::activate(window)); // a window manager would (offscreen: none)
        QCOMPARE(editor->textCursor().blockNumber(), lineOf(text, QStringLiteral("## Setup")));
    }

    void ctrlPSwitchesChannelRecentFirst()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("switcher"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("alpha")));
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("beta")));
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("gamma")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QCOMPARE(pane->channel().name, QStringLiteral("gamma"));

        const auto openSwitcher = [&](QWidget *from) -> QWidget * {
            QTest::keyClick(from, Qt::Key_P, Qt::ControlModifier);
            return UiTestHarness::waitForTopLevel(QStringLiteral("channelSwitcherDialog"),
                                                  kTimeout);
        };
        QWidget *dialog = openSwitcher(window->findChild<QWidget *>(QStringLiteral("canvasView")));
        QVERIFY(dialog);
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("channelSwitcherList"));
        auto *filter = dialog->findChild<QLineEdit *>(QStringLiteral("channelSwitcherFilterEdit"));
        QVERIFY(list && filter);
        // The one opened before the current first: Ctrl+P, Enter goes back.
        QCOMPARE(rows(list), (QStringList {QStringLiteral("# beta"), QStringLiteral("# alpha")}));
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(pane->channel().name, QStringLiteral("beta"), kTimeout);
        QVERIFY(UiTestHarness::activate(window));

        dialog = openSwitcher(window->findChild<QWidget *>(QStringLiteral("canvasView")));
        QVERIFY(dialog);
        list = dialog->findChild<QListWidget *>(QStringLiteral("channelSwitcherList"));
        filter = dialog->findChild<QLineEdit *>(QStringLiteral("channelSwitcherFilterEdit"));
        QCOMPARE(rows(list), (QStringList {QStringLiteral("# gamma"), QStringLiteral("# alpha")}));
        QTest::keyClicks(filter, QStringLiteral("#ALP"));
        QCOMPARE(rows(list), QStringList {QStringLiteral("# alpha")});
        QTest::keyClick(filter, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(pane->channel().name, QStringLiteral("alpha"), kTimeout);
        QVERIFY(UiTestHarness::activate(window));

        // Also from the editor (a text field would keep Ctrl+P otherwise); Esc changes nothing.
        QVERIFY(UiTestHarness::waitCanvasReady(pane, kTimeout));
        pane->startEditing();
        QTRY_VERIFY_WITH_TIMEOUT(pane->isEditing(), kTimeout);
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTRY_VERIFY_WITH_TIMEOUT(editor->hasFocus(), kTimeout);
        dialog = openSwitcher(editor);
        QVERIFY(dialog);
        QTest::keyClick(dialog->findChild<QLineEdit *>(QStringLiteral("channelSwitcherFilterEdit")),
                        Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), kTimeout);
        QVERIFY(UiTestHarness::activate(window)); // a window manager would (offscreen: none)
        QCOMPARE(pane->channel().name, QStringLiteral("alpha"));
        QVERIFY(pane->isEditing());

        // The recent channels are the profile's: a new start lists them in the same order.
        harness.closeSession(session);
        session = harness.openSession(QStringLiteral("switcher"));
        QVERIFY(session);
        window = session->window();
        pane = window->canvasPane();
        QTRY_COMPARE_WITH_TIMEOUT(pane->channel().name, QStringLiteral("alpha"), kTimeout);
        QVERIFY(UiTestHarness::activate(window));
        dialog = openSwitcher(pane);
        QVERIFY(dialog);
        list = dialog->findChild<QListWidget *>(QStringLiteral("channelSwitcherList"));
        QTRY_COMPARE_WITH_TIMEOUT(
            rows(list), (QStringList {QStringLiteral("# beta"), QStringLiteral("# gamma")}),
            kTimeout);
        dialog->close();
    }
};

QTEST_MAIN(OutlineSwitcherTest)
#include "test_outline_switcher.moc"
