// The Diagnostics dock as QA reads it: a request shows the moment it starts (a held request is
// listed as pending, not only once it ends), WebSocket traffic (REQ, AUTH, live EVENTs, CLOSE) is
// listed too, a write is a write (not "routed"), the time column shows the whole time, and a row
// opens a detail view with what was sent.

#include "UiTestHarness.h"

#include "RecordingProxy.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestLog.h"
#include "ui/CanvasPane.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/RequestLogModel.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QTest>

using namespace buzz;
using test::RecordingProxy;
using test::UiTestHarness;
using Column = ui::RequestLogModel::Column;

class DiagnosticsTest : public QObject
{
    Q_OBJECT

    static int findRow(ui::RequestLogModel *model, const QString &method,
                       const QString &status = {})
    {
        for (int row = model->rowCount() - 1; row >= 0; --row) {
            const auto *entry = model->entryAt(row);
            if (entry->method == method && (status.isEmpty() || entry->status == status))
                return row;
        }
        return -1;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void requestsShowWhileTheyRun()
    {
        UiTestHarness harness;
        QVERIFY(harness.startProxiedRelay());
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        auto *window = session->window();
        auto *model = window->diagnosticsPanel()->model();

        harness.proxy()->injectFault(
            RecordingProxy::Fault::Hold,
            [](const RecordingProxy::Request &request) { return request.path == "/query"; });
        QTest::keyClick(window, Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(harness.proxy()->isHolding(), 5000);
        // Held by the relay's side: the request is listed already.
        const int pending =
            findRow(model, QStringLiteral("POST /query"), QStringLiteral("pending"));
        QVERIFY(pending >= 0);
        const quint64 sequence = model->entryAt(pending)->sequence;
        harness.proxy()->release();
        QTRY_COMPARE_WITH_TIMEOUT(model->entryAt(pending)->status, QStringLiteral("ok"), 10000);
        QCOMPARE(model->entryAt(pending)->sequence, sequence); // completed in place
    }

    void webSocketTrafficAndWritesAreLogged()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("live\n")));
        auto *window = session->window();
        auto *model = window->diagnosticsPanel()->model();
        QTRY_VERIFY(findRow(model, QStringLiteral("WS AUTH"), QStringLiteral("ok")) >= 0);
        QTRY_VERIFY(findRow(model, QStringLiteral("WS REQ"), QStringLiteral("ok")) >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(findRow(model, QStringLiteral("WS EVENT")) >= 0, 10000);

        const int write = findRow(model, QStringLiteral("POST /events"));
        QVERIFY(write >= 0);
        const QString read =
            model->data(model->index(write, Column::Consistency), Qt::DisplayRole).toString();
        QCOMPARE(read, QStringLiteral("write"));
        QVERIFY(!model->entryAt(write)->detail.contains(QStringLiteral("live"))); // no content
        const int query = findRow(model, QStringLiteral("POST /query"));
        QVERIFY(model->data(model->index(query, Column::Consistency), Qt::DisplayRole).toString()
                    == QStringLiteral("routed")
                || model->data(model->index(query, Column::Consistency), Qt::DisplayRole).toString()
                    == QStringLiteral("strong"));

        // Switching channels closes the live subscription: a CLOSE frame.
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("other")));
        QTRY_VERIFY_WITH_TIMEOUT(findRow(model, QStringLiteral("WS CLOSE")) >= 0, 10000);
    }

    void timeColumnAndDetailView()
    {
        // A larger desktop font (accessibility settings, HiDPI without scaling): the whole time
        // still fits.
        const QFont normal = QApplication::font();
        QFont large = normal;
        large.setPointSizeF(normal.pointSizeF() * 1.6);
        QApplication::setFont(large);
        const auto restore = qScopeGuard([normal] { QApplication::setFont(normal); });
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        auto *window = session->window();
        window->diagnosticsDock()->show();
        auto *table = window->findChild<QTableView *>(QStringLiteral("requestLogTable"));
        QTRY_VERIFY(table->isVisible());
        auto *model = window->diagnosticsPanel()->model();
        QTRY_VERIFY(model->rowCount() > 0);
        const int query = findRow(model, QStringLiteral("POST /query"), QStringLiteral("ok"));
        QVERIFY(query >= 0);
        const QString time =
            model->data(model->index(query, Column::Time), Qt::DisplayRole).toString();
        const int needed = table->fontMetrics().horizontalAdvance(time)
            + 2 * table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 2;
        QVERIFY2(table->columnWidth(Column::Time) >= needed,
                 qPrintable(
                     QStringLiteral("%1 < %2").arg(table->columnWidth(Column::Time)).arg(needed)));

        const QModelIndex index = model->index(query, Column::Caller);
        table->scrollTo(index);
        table->setCurrentIndex(index);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Return);
        auto *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("requestDetailDialog"));
        QVERIFY(dialog);
        auto *text = dialog->findChild<QPlainTextEdit *>(QStringLiteral("requestDetailText"));
        QVERIFY(text);
        QVERIFY2(text->toPlainText().contains(QStringLiteral("\"kinds\"")),
                 qPrintable(text->toPlainText())); // the filters that were sent
        QVERIFY(text->toPlainText().contains(model->entryAt(query)->caller));
        dialog->close();
    }
};

QTEST_MAIN(DiagnosticsTest)
#include "test_diagnostics.moc"
