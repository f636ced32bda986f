// History dock: paging with "Load older", diff against the current canvas, restore behind the
// confirmation (frozen head), list disabled while restoring, outcome reported like a save.

#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "ui/CanvasPane.h"
#include "ui/DiffView.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/RestoreDialog.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class HistoryRestoreTest : public QObject
{
    Q_OBJECT

    static bool selectRow(ui::MainWindow *window, int row)
    {
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        const QModelIndex index = list->model()->index(row, 0);
        if (!index.isValid())
            return false;
        list->scrollTo(index);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(index).center());
        return list->currentIndex().row() == row;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pagesOlderRevisions()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("pager"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("log")));
        for (int i = 1; i <= 7; ++i)
            QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("revision %1\n").arg(i)));
        auto *window = session->window();
        window->historyPanel()->setPageSize(3);
        QTest::keyClick(window, Qt::Key_H, Qt::ControlModifier);
        QTRY_VERIFY(window->historyDock()->isVisible());
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        QCOMPARE(model->revisionAt(0)->content, QStringLiteral("revision 7\n")); // newest first
        QVERIFY(model->data(model->index(0), ui::HistoryModel::IsCurrentRole).toBool());
        auto *older = window->findChild<QPushButton *>(QStringLiteral("loadOlderButton"));
        QVERIFY(older->isVisible() && older->isEnabled());
        QTest::mouseClick(older, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 6, 10000);
        QTRY_VERIFY(older->isEnabled());
        QTest::mouseClick(older, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 7, 10000);
        QCOMPARE(model->revisionAt(6)->content, QStringLiteral("revision 1\n"));
        QTRY_VERIFY(!older->isVisible() || !older->isEnabled()); // a short page: nothing older
        for (int row = 1; row < 7; ++row)
            QVERIFY(model->revisionAt(row - 1)->createdAt >= model->revisionAt(row)->createdAt);
    }

    void diffAndRestoreWithConfirmation()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("restorer"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("specs")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("intro\nold idea\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("intro\nnew idea\nmore\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head()
                    && pane->head()->content == QStringLiteral("intro\nnew idea\nmore\n"));
        window->historyDock()->show();
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 10000);

        auto *diff = window->findChild<ui::DiffView *>(QStringLiteral("historyDiffView"));
        // Compared with the current canvas (the toggle; by default a revision shows its own
        // change).
        window->findChild<QCheckBox *>(QStringLiteral("historyCompareCurrentCheck"))
            ->setChecked(true);
        QVERIFY(selectRow(window, 0));
        QCOMPARE(diff->summary(), QStringLiteral("Identical to the current canvas."));
        auto *restore = window->findChild<QPushButton *>(QStringLiteral("restoreButton"));
        QVERIFY(!restore->isEnabled()); // the current revision

        QVERIFY(selectRow(window, 1));
        // From the revision to the current canvas: what changed since.
        QVERIFY(diff->summary().startsWith(QStringLiteral("+2 −1 lines")));
        QCOMPARE(diff->diffText(), QStringLiteral("  intro\n− old idea\n+ new idea\n+ more"));
        const qint64 restoredFrom = model->revisionAt(1)->createdAt;
        QVERIFY(restore->isEnabled());
        QCOMPARE(restore->text(), QStringLiteral("Restore this revision"));

        // Cancel first: nothing happens.
        QTest::mouseClick(restore, Qt::LeftButton);
        auto *dialog = qobject_cast<ui::RestoreDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog")));
        QVERIFY(dialog);
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Restore this revision?"));
        QVERIFY(dialog->bodyText().contains(QStringLiteral("'s revision from ")));
        QCOMPARE(dialog->frozenHeadId().value_or(QString()), pane->head()->eventId);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("restoreCancelButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(pane->head()->content, QStringLiteral("intro\nnew idea\nmore\n"));

        // Restore for real.
        QTest::mouseClick(restore, Qt::LeftButton);
        dialog = qobject_cast<ui::RestoreDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog")));
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("restoreConfirmButton")),
                          Qt::LeftButton);
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        QVERIFY(!list->isEnabled()); // pending-row guard
        QCOMPARE(restore->text(), QStringLiteral("Restoring..."));
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("historyNotice"));
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Restored."), 10000);
        QVERIFY(list->isEnabled());
        QCOMPARE(pane->head()->content, QStringLiteral("intro\nold idea\n"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        QVERIFY(model->data(model->index(0), ui::HistoryModel::IsCurrentRole).toBool());
        QCOMPARE(model->revisionAt(0)->content, QStringLiteral("intro\nold idea\n"));
        // Labelled as what it is (the tag on the saved event, read back with the page).
        const QString label =
            QStringLiteral("Restored from %1 by You").arg(ui::UiFormat::revisionTime(restoredFrom));
        QCOMPARE(model->data(model->index(0), ui::HistoryModel::LabelRole).toString(), label);
        QVERIFY(model->data(model->index(0), Qt::AccessibleTextRole).toString().contains(label));
        QCOMPARE(model->data(model->index(1), ui::HistoryModel::LabelRole).toString(), QString());
    }

    void restoreAgainstAMovedHeadIsAConflict()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("frozen"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("frozen")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("v1\n")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("v2\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head() && pane->head()->content == QStringLiteral("v2\n"));
        window->historyDock()->show();
        QTRY_COMPARE_WITH_TIMEOUT(window->historyPanel()->model()->rowCount(), 2, 10000);
        QVERIFY(selectRow(window, 1));
        QTest::mouseClick(window->findChild<QPushButton *>(QStringLiteral("restoreButton")),
                          Qt::LeftButton);
        auto *dialog = qobject_cast<ui::RestoreDialog *>(
            UiTestHarness::waitForTopLevel(QStringLiteral("restoreDialog")));
        QVERIFY(dialog);
        // Someone saves while the question is open: the frozen head is now stale.
        auto head = test::awaitTask(
            session->services().canvas->head(pane->channelId(), canvas::ReadIntent::Strong));
        QVERIFY(head && head.value());
        const auto concurrent = test::awaitTask(session->services().canvas->save(
            pane->channelId(), head.value(), QStringLiteral("v3\n")));
        QVERIFY(concurrent.isSaved());
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("restoreConfirmButton")),
                          Qt::LeftButton);
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("historyNotice"));
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(),
                                  QStringLiteral("This canvas changed since you loaded it — reload "
                                                 "to see the latest, then reapply your edit."),
                                  10000);
        auto now = test::awaitTask(
            session->services().canvas->head(pane->channelId(), canvas::ReadIntent::Strong));
        QCOMPARE(now.value()->content, QStringLiteral("v3\n"));
    }
};

QTEST_MAIN(HistoryRestoreTest)
#include "test_history_restore.moc"
