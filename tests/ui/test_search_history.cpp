// History as a reader uses it: each revision's "+N −M" lines against the revision it replaced,
// and a diff pane tall enough to read.

#include "UiTestHarness.h"

#include "ui/CanvasPane.h"
#include "ui/DiffView.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/HistoryModel.h"

#include <QDockWidget>
#include <QListView>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

class SearchHistoryTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void historyShowsChangeSummaryPerRevision()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("log")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("one\ntwo\nthree\n")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("one\nTWO\nthree\nfour\n")));
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("one\nfour\n")));
        auto *window = alice->window();
        QTest::keyClick(window, Qt::Key_H, Qt::ControlModifier);
        auto *model = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        const auto summary = [model](int row) {
            return model->data(model->index(row), ui::HistoryModel::ChangeSummaryRole).toString();
        };
        QCOMPARE(summary(0), QStringLiteral("+0 −2")); // TWO and three removed
        QCOMPARE(summary(1), QStringLiteral("+2 −1")); // two → TWO, four added
        QCOMPARE(summary(2), QStringLiteral("+3 −0")); // the first revision
        QVERIFY(model->data(model->index(1), Qt::AccessibleTextRole)
                    .toString()
                    .contains(QStringLiteral("+2 −1")));

        // The diff pane is tall enough to read a dozen lines, at the dock's default size.
        auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
        list->setCurrentIndex(model->index(2));
        auto *diff = window->findChild<QPlainTextEdit *>(QStringLiteral("diffText"));
        QTRY_VERIFY(diff->isVisible());
        auto *view = window->findChild<ui::DiffView *>(QStringLiteral("historyDiffView"));
        QVERIFY2(view->height() >= 12 * view->fontMetrics().lineSpacing(),
                 qPrintable(QString::number(view->height())));
        QVERIFY2(
            view->height() > list->height(),
            qPrintable(
                QStringLiteral("diff %1 px, list %2 px").arg(view->height()).arg(list->height())));
    }
};

QTEST_MAIN(SearchHistoryTest)
#include "test_search_history.moc"
