// Drafts survive a crash: the real buzz-canvas binary types into a canvas, autosaves, is killed
// with SIGKILL; a new MainWindow on the same profile offers the draft, restores it and saves it.
// Someone typing without a pause is autosaved too (the wait has a bound), and SIGTERM, SIGINT
// and SIGHUP are a normal quit that writes the draft first.

#include "UiTestHarness.h"

#include "canvas/CanvasService.h"
#include "canvas/DraftStore.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"
#include "ui/NoticeBanner.h"

#include <QDir>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include <csignal>

using namespace buzz;
using test::UiTestHarness;

namespace {

// The app (buzz-canvas-typist: the real app plus a typist, tests/ui/typist_main.cpp) on
// `profile`, typing "w1 ", "w2 ", … every `everyMs` after `text`, reporting each word on stdout.
void startTypingApp(QProcess &app, const QString &profile, const QString &text, int everyMs)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.setProcessChannelMode(QProcess::SeparateChannels);
    app.setReadChannel(QProcess::StandardOutput);
    QStringList arguments {QStringLiteral("--type"), text, QStringLiteral("--profile"), profile};
    if (everyMs > 0)
        arguments << QStringLiteral("--every") << QString::number(everyMs);
    app.start(QStringLiteral(BUZZ_TYPIST_PATH), arguments);
}

// The words the app reported typed so far (appends to `typed`), the last one first.
QString lastTyped(QProcess &app, QStringList &typed)
{
    while (app.canReadLine()) {
        const QString line = QString::fromUtf8(app.readLine()).trimmed();
        if (line.startsWith(QLatin1String("typed ")))
            typed << line.mid(6);
    }
    return typed.isEmpty() ? QString() : typed.last();
}

// The one draft in the profile's drafts/ (read from disk, as the next start would).
QString draftText(const QString &drafts)
{
    const auto all = canvas::DraftStore(drafts).allDrafts();
    return all.empty() ? QString() : all.front().content;
}

} // namespace

class DraftRecoveryTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void continuousTypingIsOnDiskBeforeAKill()
    {
        UiTestHarness harness;
        const QString profile = QDir(harness.root()).filePath(QStringLiteral("typist"));
        const QString drafts = QDir(profile).filePath(QStringLiteral("drafts"));
        QProcess app;
        const QString start = QStringLiteral("# Minutes\n\n");
        startTypingApp(app, profile, start, 100); // ten words a second, never a pause
        QVERIFY(app.waitForStarted(10000));

        // While the typing goes on, what was typed reaches the disk by itself (a debounce alone
        // would wait for a pause that never comes).
        QStringList typed;
        const auto typedAtLeast = [&](int words) {
            lastTyped(app, typed);
            return typed.size() >= words;
        };
        QTRY_VERIFY_WITH_TIMEOUT(typedAtLeast(25), 30000);
        const QString word = typed.at(24); // typed 2.5 s into a stretch without a pause
        QTRY_VERIFY2_WITH_TIMEOUT(draftText(drafts).contains(word + QLatin1Char(' ')),
                                  qPrintable(draftText(drafts).right(60)), 15000);
        QVERIFY2(lastTyped(app, typed) != word, "the typing must still be going on");

        // Killed mid-typing, possibly mid-write: the draft on disk is whole, the text as typed.
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);
        const QString text = draftText(drafts);
        QVERIFY2(text.startsWith(start), qPrintable(text.left(60)));
        QString expected = start;
        for (const QString &each : typed) {
            if (text.size() < expected.size() + each.size() + 1)
                break;
            expected += each + QLatin1Char(' ');
        }
        QVERIFY2(text.startsWith(expected) && text.contains(word), qPrintable(text.right(60)));
    }

    void quitSignalsWriteTheDraftFirst_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }

    void quitSignalsWriteTheDraftFirst()
    {
        QFETCH(int, signalNumber);
        UiTestHarness harness;
        const QString profile = QDir(harness.root()).filePath(QStringLiteral("quitter"));
        const QString drafts = QDir(profile).filePath(QStringLiteral("drafts"));
        QProcess app;
        startTypingApp(app, profile, QStringLiteral("# Agenda\n\n"), 100);
        QVERIFY(app.waitForStarted(10000));
        QStringList typed;
        const auto typedAtLeast = [&](int words) {
            lastTyped(app, typed);
            return typed.size() >= words;
        };
        QTRY_VERIFY_WITH_TIMEOUT(typedAtLeast(5), 30000);

        ::kill(pid_t(app.processId()), signalNumber);
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        lastTyped(app, typed); // everything it reported before it quit
        // Every word it typed is in the draft: written at quit, not left to the autosave.
        const QString text = draftText(drafts);
        for (const QString &word : typed)
            QVERIFY2(text.contains(word + QLatin1Char(' ')), qPrintable(word + " in " + text));
    }

    void draftOfAKilledAppIsOfferedAndSaved()
    {
        UiTestHarness harness;
        const QString profile = QDir(harness.root()).filePath(QStringLiteral("crashy"));
        const QString drafts = QDir(profile).filePath(QStringLiteral("drafts"));

        QProcess app;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(environment);
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        app.start(QStringLiteral(BUZZ_TYPIST_PATH),
                  {QStringLiteral("--type"),
                   QStringLiteral("# Unsaved\n\nwritten before the crash"),
                   QStringLiteral("--profile"), profile});
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
