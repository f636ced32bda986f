// The Diagnostics dock as QA reads it: a request shows the moment it starts (a held request is
// listed as pending, not only once it ends), WebSocket traffic (REQ, AUTH, live EVENTs, CLOSE) is
// listed too, a write is a write (not "routed"), the time column shows the whole time, and a row
// opens a detail view with what was sent. For QA (issue 30): the log saved as JSON Lines, a
// rotating journal in the profile that survives a restart, and the route of every REQ's history.

#include "UiTestHarness.h"

#include "RecordingProxy.h"
#include "canvas/Identity.h"
#include "net/client/RelayConnection.h"
#include "net/client/RequestJournal.h"
#include "net/client/RequestLog.h"
#include "ui/CanvasPane.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/RequestLogModel.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QTemporaryDir>
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

    // The JSON Lines of `path`, each parsed (an unparsable line fails the caller's QVERIFY).
    static QList<QJsonObject> jsonLines(const QString &path)
    {
        QList<QJsonObject> lines;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return lines;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine();
            lines << QJsonDocument::fromJson(line).object();
        }
        return lines;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7-qa"));
    }

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

    void savedLogIsJsonLinesWithTheSession()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("saved log\n")));
        auto *window = session->window();
        auto *model = window->diagnosticsPanel()->model();
        QTRY_VERIFY(findRow(model, QStringLiteral("WS REQ"), QStringLiteral("ok")) >= 0);
        auto *save = window->findChild<QPushButton *>(QStringLiteral("saveLogButton"));
        QVERIFY(save);
        QCOMPARE(save->accessibleName(), QStringLiteral("Save request log to a file"));

        const QString path = QDir(harness.root()).filePath(QStringLiteral("saved.jsonl"));
        QVERIFY(window->diagnosticsPanel()->saveLog(path));
        const auto *log = session->services().connection->requestLog();
        const QList<QJsonObject> lines = jsonLines(path);
        QCOMPARE(lines.size(), int(log->size()) + 1);
        const QJsonObject head = lines.first();
        QCOMPARE(head[QStringLiteral("type")].toString(), QStringLiteral("session"));
        QCOMPARE(head[QStringLiteral("app_version")].toString(), QStringLiteral("9.8.7-qa"));
        QCOMPARE(head[QStringLiteral("relay_url")].toString(),
                 session->services().connection->relayUrl().toString());
        QCOMPARE(head[QStringLiteral("npub")].toString(), session->services().identity->npub());
        QVERIFY(head[QStringLiteral("npub")].toString().startsWith(QLatin1String("npub1")));
        QVERIFY(QDateTime::fromString(head[QStringLiteral("time")].toString(), Qt::ISODateWithMs)
                    .isValid());
        // Then every request and frame, as the panel shows it, in order.
        for (int i = 1; i < lines.size(); ++i) {
            const client::RequestLogEntry &entry = log->entries()[std::size_t(i - 1)];
            QCOMPARE(lines[i][QStringLiteral("type")].toString(), QStringLiteral("request"));
            QCOMPARE(lines[i][QStringLiteral("sequence")].toInteger(), qint64(entry.sequence));
            QCOMPARE(lines[i][QStringLiteral("method")].toString(), entry.method);
            QCOMPARE(lines[i][QStringLiteral("route")].toString(), entry.route);
        }
    }

    void webSocketHistoryShowsItsRoute()
    {
        // The relay tells how it served a REQ's history (its EOSE extension): the WS REQ row
        // shows it like an HTTP read's X-Buzz-Read-Route. No replica here: the writer, "disabled".
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        auto *model = session->window()->diagnosticsPanel()->model();
        QTRY_VERIFY(findRow(model, QStringLiteral("WS REQ"), QStringLiteral("ok")) >= 0);
        const int req = findRow(model, QStringLiteral("WS REQ"), QStringLiteral("ok"));
        QCOMPARE(model->entryAt(req)->route, QStringLiteral("writer; reason=disabled"));
        QCOMPARE(model->data(model->index(req, Column::Route), Qt::DisplayRole).toString(),
                 QStringLiteral("writer · disabled"));
        // A replica's answer names the replica and how old its data was.
        QCOMPARE(ui::RequestLogModel::routeText(
                     QStringLiteral("replica; reason=fresh; replica=replica-0; age_ms=180")),
                 QStringLiteral("replica-0 · fresh · data ≤ 180 ms old"));
    }

    void webSocketHistoryFromAReplicaNamesIt()
    {
        UiTestHarness harness;
        QVERIFY(harness.startRelay(1, 30000)); // one replica, 30 s routing budget
        auto *session = harness.openSession(QStringLiteral("qa"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("diag")));
        auto *model = session->window()->diagnosticsPanel()->model();
        // Every history the relay answered says which pool served it; a replica's says which
        // replica and how old its data was.
        QTRY_VERIFY(findRow(model, QStringLiteral("WS REQ"), QStringLiteral("ok")) >= 0);
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto *entry = model->entryAt(row);
            if (entry->method != QLatin1String("WS REQ") || entry->status != QLatin1String("ok"))
                continue;
            const QString shown =
                model->data(model->index(row, Column::Route), Qt::DisplayRole).toString();
            if (entry->route.startsWith(QLatin1String("replica;"))) {
                QVERIFY2(entry->route.contains(QLatin1String("; replica=replica-0; age_ms=")),
                         qPrintable(entry->route));
                QVERIFY2(shown.startsWith(QStringLiteral("replica-0 · ")), qPrintable(shown));
            } else {
                QVERIFY2(entry->route.startsWith(QLatin1String("writer; reason=")),
                         qPrintable(entry->route));
            }
        }
    }

    void journalKeepsRequestsAcrossRestarts()
    {
        UiTestHarness harness;
        auto *first = harness.openSession(QStringLiteral("qa"));
        QVERIFY(first);
        QVERIFY(UiTestHarness::createChannel(first, QStringLiteral("diag")));
        QVERIFY(UiTestHarness::seedRevision(first, QStringLiteral("before the restart\n")));
        const QString journal =
            QDir(harness.root()).filePath(QStringLiteral("qa/logs/requests.jsonl"));
        auto *label =
            first->window()->findChild<QLabel *>(QStringLiteral("diagnosticsJournalLabel"));
        QVERIFY(label);
        QVERIFY2(label->text().contains(QDir::toNativeSeparators(journal)),
                 qPrintable(label->text()));
        const quint64 writeSequence = [&] {
            for (const auto &entry : first->services().connection->requestLog()->entries()) {
                if (entry.method == QLatin1String("POST /events"))
                    return entry.sequence;
            }
            return quint64(0);
        }();
        QVERIFY(writeSequence > 0);
        harness.closeSession(first);

        auto *second = harness.openSession(QStringLiteral("qa"));
        QVERIFY(second);
        QTRY_VERIFY_WITH_TIMEOUT(findRow(second->window()->diagnosticsPanel()->model(),
                                         QStringLiteral("WS REQ"), QStringLiteral("ok"))
                                     >= 0,
                                 10000);
        const QList<QJsonObject> lines = jsonLines(journal);
        QList<int> sessions;
        bool firstWrite = false;
        for (int i = 0; i < lines.size(); ++i) {
            const QString type = lines[i][QStringLiteral("type")].toString();
            QVERIFY2(type == QLatin1String("session") || type == QLatin1String("request"),
                     qPrintable(QStringLiteral("line %1").arg(i + 1)));
            if (type == QLatin1String("session"))
                sessions << i;
            firstWrite = firstWrite
                || (sessions.size() == 1
                    && lines[i][QStringLiteral("method")].toString()
                        == QLatin1String("POST /events")
                    && lines[i][QStringLiteral("sequence")].toInteger() == qint64(writeSequence));
        }
        QCOMPARE(sessions.size(), 2); // one per start, the first run's requests kept
        QCOMPARE(sessions.first(), 0);
        QVERIFY(firstWrite);
        QVERIFY(sessions.last() < lines.size() - 1); // the second run's requests follow
    }

    void journalRotatesWithinItsBound()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        client::RequestLog log;
        const QString path = dir.filePath(QStringLiteral("requests.jsonl"));
        constexpr qint64 kMaxBytes = 4096;
        client::RequestJournal journal(&log, path, kMaxBytes, 2);
        QVERIFY(journal.open({QStringLiteral("9.8.7-qa"), QStringLiteral("ws://relay.test"),
                              QStringLiteral("npub1qa"), QDateTime::currentDateTimeUtc()}));
        for (int i = 0; i < 300; ++i) {
            client::RequestLogEntry entry;
            entry.caller = QStringLiteral("history_page");
            entry.method = QStringLiteral("POST /query");
            entry.status = QStringLiteral("ok");
            entry.detail = QString(120, QLatin1Char('x'));
            log.append(entry);
        }
        const QStringList files = journal.files();
        QCOMPARE(files.size(), 3); // the current file and two rotated ones, the oldest dropped
        QCOMPARE(files.last(), path);
        qint64 previous = 0;
        for (const QString &file : files) {
            QVERIFY(QFileInfo(file).size() <= kMaxBytes);
            const QList<QJsonObject> lines = jsonLines(file);
            QVERIFY(lines.size() > 1);
            // Each file can be read on its own: it starts with the session.
            QCOMPARE(lines.first()[QStringLiteral("npub")].toString(), QStringLiteral("npub1qa"));
            for (const QJsonObject &line : lines.mid(1)) {
                const qint64 sequence = line[QStringLiteral("sequence")].toInteger();
                QVERIFY(previous == 0 || sequence == previous + 1); // oldest first, no gap
                previous = sequence;
            }
        }
        QCOMPARE(previous, qint64(300)); // the newest is kept
        QVERIFY(jsonLines(files.first())[1][QStringLiteral("sequence")].toInteger() > 1);
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
