// Drafts survive a crash: the real buzz-canvas binary types into a canvas, autosaves, is killed
// with SIGKILL; a new MainWindow on the same profile offers the draft, restores it and saves it.

#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"

#include <QDir>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

#include <csignal>

using namespace buzz;
using test::UiTestHarness;

class DraftRecoveryTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void draftOfAKilledAppIsOfferedAndSaved()
    {
        UiTestHarness harness;
        const QString profile = QDir(harness.root()).filePath(QStringLiteral("crashy"));
        const QString drafts = QDir(profile).filePath(QStringLiteral("drafts"));

        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("BUZZ_CANVAS_AUTOTYPE"),
                           QStringLiteral("# Unsaved\n\nwritten before the crash"));
        app.setProcessEnvironment(environment);
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        app.start(QStringLiteral(BUZZ_BINARY_DIR "/app/desktop/buzz-canvas"),
                  {QStringLiteral("--profile"), profile});
        QVERIFY(app.waitForStarted(10000));
        // Autosave is debounced (~1 s); wait for the file, then kill without any chance to flush.
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(drafts).entryList(QDir::Files).isEmpty(), 20000);
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);

        // Same profile, same embedded relay data: the draft banner offers the text.
        auto *session = harness.openEmbeddedSession(QStringLiteral("crashy"));
        QVERIFY(session);
        auto *window = session->window();
        auto *pane = window->canvasPane();
        QVERIFY(UiTestHarness::waitCanvasReady(pane));
        QCOMPARE(pane->channel().name,
                 QStringLiteral("general")); // the channel of the first run, not a new one
        auto *banner = window->findChild<ui::NoticeBanner *>(QStringLiteral("draftBanner"));
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QVERIFY(banner->text().startsWith(
            QStringLiteral("You have an unsaved draft of this canvas from ")));
        QVERIFY(!pane->isEditing());
        QTest::mouseClick(banner->action(QStringLiteral("Restore")), Qt::LeftButton);
        QTRY_VERIFY(pane->isEditing());
        auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QCOMPARE(editor->toPlainText(), QStringLiteral("# Unsaved\n\nwritten before the crash"));

        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QVERIFY(UiTestHarness::waitSaved(pane));
        QCOMPARE(pane->head()->content, QStringLiteral("# Unsaved\n\nwritten before the crash"));
        // A verified save removes the draft: the next start offers nothing.
        QTRY_VERIFY(QDir(drafts).entryList(QDir::Files).isEmpty());
    }
};

QTEST_MAIN(DraftRecoveryTest)
#include "test_draft_recovery.moc"
