// History that says who changed what: each revision shows its own change (against the revision
// its expected-revision names, read by id when no loaded page lists it) and, toggled, the change
// from it to the current canvas; the blame view says who last changed each line of the selected
// revision, by several authors; the conflict dialog shows the common base, opens at the first
// conflict and, in a clean merge, says whose change is whose.

#include "UiTestHarness.h"

#include "CanvasTestSupport.h"
#include "canvas/BlameService.h"
#include "canvas/CanvasService.h"
#include "ui/BlameView.h"
#include "ui/CanvasPane.h"
#include "ui/ConflictDialog.h"
#include "ui/DiffView.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/BlameModel.h"
#include "ui/models/HistoryModel.h"

#include <QAccessible>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBlock>

using namespace buzz;
using test::UiTestHarness;

class HistoryViewsTest : public QObject
{
    Q_OBJECT

    static void selectRow(ui::MainWindow *window, int row)
    {
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        list->setCurrentIndex(list->model()->index(row, 0));
    }

    static bool hasNames(QWidget *widget)
    {
        return widget && !widget->objectName().isEmpty() && !widget->accessibleName().isEmpty();
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void eachRevisionShowsItsOwnChangeAndTheToggleComparesWithCurrent()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("differ"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("ideas")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("intro\nold idea\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("intro\nnew idea\nmore\n")));
        QVERIFY(
            UiTestHarness::seedRevision(session, QStringLiteral("intro\nnew idea\nmore\nend\n")));
        auto *window = session->window();
        QTRY_VERIFY(window->canvasPane()->head()
                    && window->canvasPane()->head()->content.endsWith(QStringLiteral("end\n")));
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        auto *diff = window->findChild<ui::DiffView *>(QStringLiteral("historyDiffView"));
        auto *toggle = window->findChild<QCheckBox *>(QStringLiteral("historyCompareCurrentCheck"));
        QVERIFY(hasNames(toggle));
        QVERIFY(hasNames(window->findChild<QTabWidget *>(QStringLiteral("historyDetailTabs"))));
        QVERIFY(!toggle->isChecked());

        // The middle revision: what it changed, older text first.
        selectRow(window, 1);
        QCOMPARE(diff->diffText(), QStringLiteral("  intro\n− old idea\n+ new idea\n+ more"));
        QVERIFY2(diff->summary().startsWith(QStringLiteral("+2 −1 lines in this revision")),
                 qPrintable(diff->summary()));
        // The first revision added everything.
        selectRow(window, 2);
        QCOMPARE(diff->diffText(), QStringLiteral("+ intro\n+ old idea"));
        QVERIFY(diff->summary().contains(QStringLiteral("first revision")));

        // Toggled: from the revision to the current canvas, what changed since.
        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(toggle->isChecked());
        QCOMPARE(diff->diffText(),
                 QStringLiteral("  intro\n− old idea\n+ new idea\n+ more\n+ end"));
        QVERIFY2(diff->summary().startsWith(
                     QStringLiteral("+3 −1 lines from this revision to the current canvas")),
                 qPrintable(diff->summary()));
        selectRow(window, 0);
        QCOMPARE(diff->summary(), QStringLiteral("Identical to the current canvas."));
        QTest::mouseClick(toggle, Qt::LeftButton);
        QCOMPARE(diff->diffText(), QStringLiteral("  intro\n  new idea\n  more\n+ end"));
    }

    void aParentOnNoLoadedPageIsReadByItsId()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("pager"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("paged")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("a\nb\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("a\nB\n")));
        auto *window = session->window();
        QTRY_VERIFY(window->canvasPane()->head()
                    && window->canvasPane()->head()->content == QStringLiteral("a\nB\n"));
        window->historyPanel()->setPageSize(1); // the parent is on the next page
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
        QVERIFY(model->hasMore());
        selectRow(window, 0);
        auto *diff = window->findChild<ui::DiffView *>(QStringLiteral("historyDiffView"));
        // Against the revision its expected-revision names, read by id, not "nothing before it".
        QTRY_COMPARE_WITH_TIMEOUT(diff->diffText(), QStringLiteral("  a\n− b\n+ B"), 10000);
        QCOMPARE(model->rowCount(), 1);
        QTRY_COMPARE(model->data(model->index(0), ui::HistoryModel::ChangeSummaryRole).toString(),
                     QStringLiteral("+1 −1"));
    }

    void blameSaysWhoLastChangedEachLine()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("alice"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("blamed")));
        auto *window = session->window();
        const QString channel = window->canvasPane()->channelId();
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("title\nalice's line\n")));
        // Bob, another identity, adds a line (the channel is open).
        test::CanvasClient bob(QUrl(harness.relayUrl()));
        auto head = test::awaitTask(bob.service->head(channel, canvas::ReadIntent::Strong));
        QVERIFY(head && *head);
        const auto bobs = test::awaitTask(
            bob.service->save(channel, *head, QStringLiteral("title\nalice's line\nbob's line\n")));
        QVERIFY2(bobs.isSaved(), qPrintable(bobs.kindName()));
        QVERIFY(UiTestHarness::seedRevision(session,
                                            QStringLiteral("Title\nalice's line\nbob's line\n")));
        QTRY_VERIFY(window->canvasPane()->head()
                    && window->canvasPane()->head()->content.startsWith(QStringLiteral("Title")));

        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("historyDetailTabs"));
        auto *blameView = window->findChild<ui::BlameView *>(QStringLiteral("historyBlameView"));
        QVERIFY(hasNames(blameView));
        auto *table = blameView->findChild<QTableView *>(QStringLiteral("blameTable"));
        QVERIFY(hasNames(table));
        tabs->setCurrentWidget(blameView);

        // Nothing selected: the current canvas.
        auto *blame = blameView->model();
        QTRY_COMPARE_WITH_TIMEOUT(blame->rowCount(), 3, 10000);
        QVERIFY(table->isVisible());
        const QString alice = window->canvasPane()->head()->author;
        const QString bobKey = QString::fromStdString(bob.identity.key.publicKeyHex());
        const auto who = [blame](int row) {
            return blame->index(row, 0).data(ui::BlameModel::AuthorPubkeyRole).toString();
        };
        QCOMPARE(who(0), alice); // "Title": Alice's last revision
        QCOMPARE(who(1), alice); // unchanged since her first
        QCOMPARE(who(2), bobKey);
        QCOMPARE(blame->index(2, ui::BlameModel::TextColumn).data().toString(),
                 QStringLiteral("bob's line"));
        QCOMPARE(blame->index(2, 0).data(ui::BlameModel::RevisionIdRole).toString(),
                 bobs.saved->eventId);
        QCOMPARE(blame->index(2, 0).data(ui::BlameModel::CreatedAtRole).toLongLong(),
                 bobs.saved->createdAt);
        QCOMPARE(blame->index(0, ui::BlameModel::AuthorColumn).data().toString(),
                 QStringLiteral("You"));
        QVERIFY(!blame->index(2, ui::BlameModel::AuthorColumn).data().toString().isEmpty());
        QVERIFY(!blame->index(2, ui::BlameModel::TimeColumn).data().toString().isEmpty());

        // Another revision selected: its own blame (Bob's: "title" is still Alice's first).
        selectRow(window, 1);
        QTRY_COMPARE_WITH_TIMEOUT(blame->index(0, ui::BlameModel::TextColumn).data().toString(),
                                  QStringLiteral("title"), 10000);
        QCOMPARE(who(0), alice);
        QCOMPARE(who(2), bobKey);
        QVERIFY(blameView->statusText().contains(QStringLiteral("3 lines")));

        // A screen reader reads it as a table of lines.
        QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(table);
        QVERIFY(accessible);
        QCOMPARE(accessible->role(), QAccessible::Table);
        QCOMPARE(accessible->text(QAccessible::Name), QStringLiteral("Who last changed each line"));
        QVERIFY(accessible->tableInterface());
        QCOMPARE(accessible->tableInterface()->rowCount(), 3);
    }

    void conflictDialogShowsTheBaseAndOpensAtTheFirstConflict()
    {
        QStringList base;
        for (int i = 0; i < 120; ++i)
            base << QStringLiteral("line %1").arg(i);
        QStringList mine = base;
        QStringList theirs = base;
        mine[100] = QStringLiteral("mine 100");
        theirs[100] = QStringLiteral("theirs 100");
        ui::ConflictDialog::Input input;
        input.baseText = base.join(QLatin1Char('\n')) + QLatin1Char('\n');
        input.mineText = mine.join(QLatin1Char('\n')) + QLatin1Char('\n');
        input.theirsText = theirs.join(QLatin1Char('\n')) + QLatin1Char('\n');
        input.theirsAuthor = QStringLiteral("Bob");
        ui::ConflictDialog dialog(input);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.conflictCount(), 1);
        auto *baseHunk = dialog.findChild<QPlainTextEdit *>(QStringLiteral("baseHunkText"));
        QVERIFY(hasNames(baseHunk) && baseHunk->isVisible());
        QCOMPARE(baseHunk->toPlainText(), QStringLiteral("line 100"));
        QCOMPARE(dialog.findChild<QPlainTextEdit *>(QStringLiteral("mineHunkText"))->toPlainText(),
                 QStringLiteral("mine 100"));
        QCOMPARE(
            dialog.findChild<QPlainTextEdit *>(QStringLiteral("theirsHunkText"))->toPlainText(),
            QStringLiteral("theirs 100"));
        // The result opens at the conflict, not at line 1.
        auto *result = dialog.findChild<QPlainTextEdit *>(QStringLiteral("mergedResultEdit"));
        QCOMPARE(dialog.resultLineOfConflict(0), 100);
        QCOMPARE(result->textCursor().blockNumber(), 100);
        QCOMPARE(result->textCursor().block().text(), QStringLiteral("<<<<<<< mine"));
        const QTextBlock top = result->cursorForPosition(QPoint(4, 4)).block();
        QVERIFY2(top.blockNumber() > 50, qPrintable(QString::number(top.blockNumber())));
        QVERIFY(!dialog.findChild<QListWidget *>(QStringLiteral("mergeChangeList"))->isVisible());
    }

    void cleanMergeSaysWhoseChangeIsWhose()
    {
        ui::ConflictDialog::Input input;
        input.baseText = QStringLiteral("a\nb\nc\nd\n");
        input.mineText = QStringLiteral("A\nb\nc\nd\n");
        input.theirsText = QStringLiteral("a\nb\nC\nd\n");
        input.theirsAuthor = QStringLiteral("Bob");
        ui::ConflictDialog dialog(input);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.merge().clean());
        auto *changes = dialog.findChild<QListWidget *>(QStringLiteral("mergeChangeList"));
        QVERIFY(hasNames(changes) && changes->isVisible());
        QCOMPARE(changes->count(), 2);
        QCOMPARE(changes->item(0)->text(), QStringLiteral("Line 1: your change"));
        QCOMPARE(changes->item(1)->text(), QStringLiteral("Line 3: Bob's change"));
        // Marked in the result too, and a click goes there.
        auto *result = dialog.findChild<QPlainTextEdit *>(QStringLiteral("mergedResultEdit"));
        QCOMPARE(result->extraSelections().size(), 2);
        QCOMPARE(result->extraSelections().at(1).cursor.block().text(), QStringLiteral("C"));
        changes->setCurrentRow(1);
        QCOMPARE(result->textCursor().blockNumber(), 2);
        QCOMPARE(dialog.resultText(), QStringLiteral("A\nb\nC\nd\n"));
    }
};

QTEST_MAIN(HistoryViewsTest)
#include "test_history_views.moc"
