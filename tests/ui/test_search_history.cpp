// Search and History as a reader uses them: one search row per canvas (not one per old revision),
// newest first, with author, time and the match highlighted, and a match found only in an older
// revision said to be so; History gives each revision its "+N −M" lines against the revision it
// replaced, and a diff pane tall enough to read.

#include "UiTestHarness.h"

#include "ui/CanvasPane.h"
#include "ui/DiffView.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/SearchPanel.h"
#include "ui/models/HistoryModel.h"
#include "ui/models/SearchResultModel.h"

#include <QDockWidget>
#include <QListView>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;
using Hit = ui::SearchResultModel::Hit;

class SearchHistoryTest : public QObject
{
    Q_OBJECT

    static std::vector<const Hit *> canvasHits(ui::SearchResultModel *model)
    {
        std::vector<const Hit *> hits;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->hitAt(row)->kind == Hit::Kind::Canvas)
                hits.push_back(model->hitAt(row));
        }
        return hits;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void searchGroupsByCanvasNewestFirst()
    {
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("older")));
        const QString older = alice->window()->canvasPane()->channelId();
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("the zebra stripes plan\n")));
        // The match leaves the canvas: only an older revision has it now.
        QVERIFY(UiTestHarness::seedRevision(alice, QStringLiteral("nothing here any more\n")));

        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("newer")));
        const QString newer = alice->window()->canvasPane()->channelId();
        for (int i = 1; i <= 11; ++i)
            QVERIFY(UiTestHarness::seedRevision(
                alice, QStringLiteral("intro line\nzebra crossing, take %1\n").arg(i)));

        auto *window = alice->window();
        auto *panel = window->searchPanel();
        QSignalSpy finished(panel, &ui::SearchPanel::searchFinished);
        panel->search(QStringLiteral("zebra"));
        QVERIFY(finished.wait(10000));
        const auto hits = canvasHits(panel->model());
        QCOMPARE(int(hits.size()), 2); // one per canvas, not twelve revisions
        QCOMPARE(hits[0]->channelId, newer); // newest first
        QCOMPARE(hits[1]->channelId, older);
        QVERIFY(hits[0]->inCurrent);
        QVERIFY(!hits[1]->inCurrent);
        QCOMPARE(hits[0]->matchingRevisions, 11);
        QVERIFY2(hits[0]->snippet.contains(QStringLiteral("take 11")),
                 qPrintable(hits[0]->snippet));
        QCOMPARE(hits[0]->snippet.mid(hits[0]->matchStart, hits[0]->matchLength),
                 QStringLiteral("zebra"));

        auto *model = panel->model();
        int row = 0;
        while (model->hitAt(row) != hits[0])
            ++row;
        const QString meta =
            model->data(model->index(row), ui::SearchResultModel::MetaRole).toString();
        QVERIFY2(meta.startsWith(QStringLiteral("You · ")), qPrintable(meta));
        int olderRow = 0;
        while (model->hitAt(olderRow) != hits[1])
            ++olderRow;
        QVERIFY(model->data(model->index(olderRow), ui::SearchResultModel::MetaRole)
                    .toString()
                    .contains(QStringLiteral("only in an older revision")));

        // Activating a hit opens its channel.
        auto *list = window->findChild<QListView *>(QStringLiteral("searchResultList"));
        window->searchDock()->show();
        QTRY_VERIFY(list->isVisible());
        list->scrollTo(model->index(olderRow));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                          list->visualRect(model->index(olderRow)).center());
        QTRY_COMPARE_WITH_TIMEOUT(window->canvasPane()->channelId(), older, 10000);
    }

    void snippetQuotesTheCanvasAsItReads()
    {
        // A snippet is read as text beside the rendered canvas: Markdown's markers and link
        // targets are not part of it, and the match stays highlighted in what is left.
        UiTestHarness harness;
        auto *alice = harness.openSession(QStringLiteral("alice"));
        QVERIFY(alice);
        QVERIFY(UiTestHarness::createChannel(alice, QStringLiteral("plans")));
        // Far down a large canvas (~90 KB), as a snippet of a long document is.
        QString canvas = QStringLiteral("# Release **plan**\n\n");
        for (int i = 0; i < 2000; ++i)
            canvas += QStringLiteral("- filler item %1 with **bold** words\n").arg(i);
        canvas += QStringLiteral("\n> We ship the *zebra* build on `Tuesday`, see "
                                 "[the notes](https://example.org/notes).\n");
        QVERIFY(UiTestHarness::seedRevision(alice, canvas));
        auto *panel = alice->window()->searchPanel();
        QSignalSpy finished(panel, &ui::SearchPanel::searchFinished);
        panel->search(QStringLiteral("zebra"));
        QVERIFY(finished.wait(10000));
        const auto hits = canvasHits(panel->model());
        QCOMPARE(int(hits.size()), 1);
        const QString snippet = hits[0]->snippet;
        QVERIFY2(
            snippet.contains(QStringLiteral("We ship the zebra build on Tuesday, see the notes.")),
            qPrintable(snippet));
        for (const QString &marker : {QStringLiteral("*"), QStringLiteral("#"), QStringLiteral("`"),
                                      QStringLiteral(">"), QStringLiteral("https://")})
            QVERIFY2(!snippet.contains(marker),
                     qPrintable(marker + QStringLiteral(" in ") + snippet));
        QCOMPARE(snippet.mid(hits[0]->matchStart, hits[0]->matchLength), QStringLiteral("zebra"));
    }

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
