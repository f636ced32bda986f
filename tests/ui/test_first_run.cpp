// First run to first save, then edit and save again, on the real widgets (driven by objectName).

#include "BuzzVersion.h"
#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "ui/CanvasPane.h"
#include "ui/HistoryPanel.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"
#include "ui/models/HistoryModel.h"

#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

#include <cstdio>
#include <cstdlib>
#include <malloc.h>

using namespace buzz;
using test::UiTestHarness;

class FirstRunTest : public QObject
{
    Q_OBJECT

private:
    static QString appPath() { return QStringLiteral(BUZZ_BINARY_DIR "/app/desktop/buzz-canvas"); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void versionAndHelpWorkWithoutADisplay()
    {
        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
        environment.remove(QStringLiteral("DISPLAY"));
        app.setProcessEnvironment(environment);
        app.start(appPath(), {QStringLiteral("--version")});
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(app.readAllStandardOutput()).trimmed(),
                 QStringLiteral("buzz-canvas " BUZZ_VERSION_FULL));
        app.start(appPath(), {QStringLiteral("--help")});
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitCode(), 0);
        const QString help = QString::fromUtf8(app.readAllStandardOutput());
        QVERIFY(help.contains(QStringLiteral("--relay URL")));
        QVERIFY(help.contains(QStringLiteral("--profile DIR")));
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(environment);
        app.start(appPath(), {QStringLiteral("--bogus")});
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitCode(), 1);
    }

    void firstRunCreatesIdentityChannelAndSavesFirstCanvas()
    {
        UiTestHarness harness;
        auto *session = harness.openEmbeddedSession(QStringLiteral("first"));
        QVERIFY(session);
        QVERIFY(session->isEmbedded());
        auto *window = session->window();
        auto *pane = window->canvasPane();

        // Nothing configured: an identity, a first channel and its (empty) canvas.
        QVERIFY(UiTestHarness::waitCanvasReady(pane));
        QCOMPARE(pane->channel().name, QStringLiteral("general"));
        QVERIFY(QFile::exists(QDir(session->dataDir()).filePath(QStringLiteral("identity.key"))));
        QVERIFY(QDir(QDir(session->dataDir()).filePath(QStringLiteral("relay"))).exists());
        auto *state = window->findChild<QLabel *>(QStringLiteral("canvasStateLabel"));
        QVERIFY(state);
        QTRY_COMPARE(state->text(), QStringLiteral("No canvas set for this channel."));
        auto *identityButton = window->findChild<QWidget *>(QStringLiteral("identityButton"));
        QVERIFY(identityButton);

        auto *edit = window->findChild<QPushButton *>(QStringLiteral("editButton"));
        QVERIFY(edit);
        QCOMPARE(edit->text(), QStringLiteral("Create canvas"));
        QTRY_VERIFY(edit->isEnabled());
        QTest::mouseClick(edit, Qt::LeftButton);
        QVERIFY(pane->isEditing());

        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QVERIFY(editor);
        QCOMPARE(editor->placeholderText(),
                 QStringLiteral("Write your canvas content in Markdown…"));
        QTest::keyClicks(editor, QStringLiteral("# Launch plan"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("Ship the first build."));
        QCOMPARE(editor->toPlainText(), QStringLiteral("# Launch plan\n\nShip the first build."));

        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        auto *notice = window->findChild<ui::NoticeBanner *>(QStringLiteral("saveNotice"));
        QVERIFY(notice);
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Saved."), 10000);
        QVERIFY(pane->isEditing()); // a save keeps the editor open...
        QTest::keyClick(editor, Qt::Key_Escape); // ...Esc shows the rendered canvas
        QTRY_VERIFY(!pane->isEditing());
        auto *view = window->findChild<QTextBrowser *>(QStringLiteral("canvasView"));
        QVERIFY(view && view->isVisible());
        QVERIFY(view->toPlainText().contains(QStringLiteral("Ship the first build.")));
        auto *info = window->findChild<QLabel *>(QStringLiteral("revisionInfoLabel"));
        // Your own revision says so; who you are on the relay is in the tooltip.
        QVERIFY2(info->text().startsWith(QStringLiteral("Last edited by you · ")),
                 qPrintable(info->text()));
        QVERIFY(info->toolTip().contains(QStringLiteral("npub1")));
        QCOMPARE(edit->text(), QStringLiteral("Edit canvas"));

        // The relay really holds it (a strong read, not what the widget remembers).
        auto head = test::awaitTask(
            session->services().canvas->head(pane->channelId(), canvas::ReadIntent::Strong));
        QVERIFY(head && head.value());
        QCOMPARE(head.value()->content, QStringLiteral("# Launch plan\n\nShip the first build."));
    }

    void embeddedRelayKeepsTheFootprintSmall()
    {
        // The embedded relay runs on SQLite: libpq and what it brings (libssl, gnutls through
        // libldap, p11-kit…: about 3 MB resident, gnutls's start-up) are loaded only by a relay
        // given a PostgreSQL URL (relay/store/postgres/LibPq.h).
        UiTestHarness harness;
        auto *session = harness.openEmbeddedSession(QStringLiteral("first"));
        QVERIFY(session && UiTestHarness::waitCanvasReady(session->window()->canvasPane()));
        QFile maps(QStringLiteral("/proc/self/maps"));
        QVERIFY(maps.open(QIODevice::ReadOnly));
        const QByteArray mapped = maps.readAll();
        QVERIFY(mapped.contains("libQt6Widgets")); // the list is readable
        QVERIFY2(!mapped.contains("libpq.so"), "libpq is loaded without a PostgreSQL store");
        QVERIFY2(!mapped.contains("libgnutls"), "gnutls is loaded without a PostgreSQL store");

        // The session keeps malloc to two arenas (DesktopSession.cpp says why): glibc lists each
        // arena as a <heap> in malloc_info, the main arena first.
        QVERIFY(UiTestHarness::seedRevision(session, QString(200 * 1024, QLatin1Char('x'))));
        QTRY_VERIFY(session->window()->canvasPane()->head()
                    && session->window()->canvasPane()->head()->content.size() == 200 * 1024);
        char *info = nullptr;
        size_t infoSize = 0;
        FILE *stream = open_memstream(&info, &infoSize);
        QVERIFY(stream && malloc_info(0, stream) == 0);
        std::fclose(stream);
        const QByteArray xml(info, qsizetype(infoSize));
        std::free(info);
        QVERIFY2(xml.count("<heap nr=") <= 2, xml.constData());
    }

    void editAndSaveKeepsHistoryAndMovesTheBase()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("editor"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("notes")));
        QVERIFY(UiTestHarness::seedRevision(session, QStringLiteral("one\ntwo\n")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QTRY_VERIFY(pane->head()
                    && pane->head()->content == QStringLiteral("one\ntwo\n")); // live refresh

        // Ctrl+E edits, Ctrl+S saves, twice: each save is a CAS against the previous one, and
        // the editor stays open between them.
        QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(pane->isEditing());
        for (const QString &line : {QStringLiteral("three"), QStringLiteral("four")}) {
            auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
            QVERIFY(pane->isEditing());
            QCOMPARE(pane->editBase()->eventId, pane->head()->eventId);
            editor->moveCursor(QTextCursor::End);
            QTest::keyClicks(editor, line);
            QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
            QVERIFY(UiTestHarness::waitSaved(pane));
            QVERIFY(pane->head()->content.endsWith(line));
        }
        QTest::keyClick(window, Qt::Key_E, Qt::ControlModifier); // back to the rendered canvas
        QTRY_VERIFY(!pane->isEditing());
        QCOMPARE(pane->head()->content, QStringLiteral("one\ntwo\nthreefour"));

        QTest::keyClick(window, Qt::Key_H, Qt::ControlModifier);
        QTRY_VERIFY(window->historyDock()->isVisible());
        auto *history = window->historyPanel()->model();
        QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 3, 10000);
        QVERIFY(history->data(history->index(0), ui::HistoryModel::IsCurrentRole).toBool());
        QVERIFY(!history->data(history->index(1), ui::HistoryModel::IsCurrentRole).toBool());
    }

    void escapeAsksBeforeDroppingUnsavedText()
    {
        UiTestHarness harness;
        auto *session = harness.openSession(QStringLiteral("esc"));
        QVERIFY(session);
        QVERIFY(UiTestHarness::createChannel(session, QStringLiteral("esc")));
        auto *window = session->window();
        auto *pane = window->canvasPane();
        pane->startEditing();
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QTest::keyClicks(editor, QStringLiteral("keep me"));
        QTest::keyClick(editor, Qt::Key_Escape);
        auto *confirm =
            window->findChild<ui::NoticeBanner *>(QStringLiteral("discardConfirmBanner"));
        QTRY_VERIFY(confirm->isVisible());
        QVERIFY(pane->isEditing());
        QCOMPARE(editor->toPlainText(), QStringLiteral("keep me"));
        QTest::mouseClick(confirm->action(QStringLiteral("Keep")), Qt::LeftButton);
        QVERIFY(pane->isEditing());
        QCOMPARE(editor->toPlainText(), QStringLiteral("keep me"));
    }

    void unreachableRelayIsSaidPlainly()
    {
        UiTestHarness harness;
        desktop::DesktopSession::Options options;
        options.profileDir = QDir(harness.root()).filePath(QStringLiteral("offline"));
        options.relayUrl = QStringLiteral("http://127.0.0.1:9"); // discard port: nothing listens
        desktop::DesktopSession session(options);
        QVERIFY(test::awaitTask(session.start()));
        auto *status =
            session.window()->findChild<QLabel *>(QStringLiteral("channelListStatusLabel"));
        QVERIFY(status);
        // Said once, where the connection is shown; the channel list waits for the relay.
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("Waiting for the relay…"), 15000);
        QVERIFY(status->toolTip().startsWith(
            QStringLiteral("Can't reach the relay — check your VPN or network connection.")));
        auto *relayStatus =
            session.window()->findChild<QLabel *>(QStringLiteral("relayStatusLabel"));
        QTRY_VERIFY(relayStatus->text().contains(QStringLiteral("Can't reach the relay.")));
        auto *banner =
            session.window()->findChild<ui::NoticeBanner *>(QStringLiteral("connectionBanner"));
        QTRY_VERIFY(banner->isVisible()
                    && banner->text().startsWith(QStringLiteral("Can't reach")));
    }
};

QTEST_MAIN(FirstRunTest)
#include "test_first_run.moc"
