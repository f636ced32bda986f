// Renders the README screenshots from the real widgets (QWidget::grab, offscreen or under Xvfb):
//   ui_screenshots <output dir>  →  main-window.png, history-diff.png, search-results.png,
//                                   conflict-dialog.png, typed-while-saving.png,
//                                   history-blame.png, presence.png, live-change.png,
//                                   main-window-de.png (German UI), main-window-dark.png (dark
//                                   palette), relay-offline.png
// Not a test: run it by hand when the UI changes.

#include "UiTestHarness.h"

#include "app/desktop/Translations.h"

#include "canvas/CanvasSession.h"
#include "canvas/ChannelService.h"
#include "canvas/ProfileCache.h"
#include "ui/BlameView.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/ConflictDialog.h"
#include "ui/HistoryPanel.h"
#include "ui/LiveChangeNotice.h"
#include "ui/MainWindow.h"
#include "ui/PresenceBar.h"
#include "ui/SearchPanel.h"
#include "ui/models/BlameModel.h"
#include "ui/models/HistoryModel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QPalette>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTest>

using namespace buzz;
using test::UiTestHarness;

namespace {

const QString kPlanV1 = QStringLiteral("# Launch plan\n\nWe ship **Buzz Canvas 0.1** to the design "
                                       "team first.\n\n## Milestones\n\n"
                                       "- [x] Embedded relay, first run needs nothing\n- [ ] "
                                       "History with diff and restore\n"
                                       "- [ ] Conflict merge\n\n## Owners\n\n| Area | Owner "
                                       "|\n|---|---|\n| Desktop | Maya |\n| Relay "
                                       "| Jonas |\n");
const QString kPlanV2 = QStringLiteral("# Launch plan\n\nWe ship **Buzz Canvas 0.1** to the design "
                                       "team first, then to everyone.\n\n"
                                       "## Milestones\n\n- [x] Embedded relay, first run needs "
                                       "nothing\n- [x] History with diff and "
                                       "restore\n"
                                       "- [ ] Conflict merge\n- [ ] Packaging (.deb)\n\n## "
                                       "Owners\n\n| Area | Owner |\n|---|---|\n"
                                       "| Desktop | Maya |\n| Relay | Jonas |\n| Packaging | Ana "
                                       "|\n\n> Saves are compare-and-swap: "
                                       "nobody's edit is "
                                       "overwritten silently.\n");
const QString kPlanV3 = QString(kPlanV2).replace(QStringLiteral("- [ ] Conflict merge"),
                                                 QStringLiteral("- [x] Conflict merge"));

bool save(QWidget *widget, const QString &path);

// Fusion's dark variant, as a desktop dark theme gives it (Window, Base, Text, Highlight...).
QPalette darkPalette()
{
    QPalette dark;
    const QColor window(42, 46, 50);
    const QColor base(32, 35, 38);
    const QColor text(232, 232, 232);
    const QColor disabled(127, 127, 127);
    dark.setColor(QPalette::Window, window);
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::AlternateBase, window);
    dark.setColor(QPalette::ToolTipBase, base);
    dark.setColor(QPalette::ToolTipText, text);
    dark.setColor(QPalette::PlaceholderText, disabled);
    dark.setColor(QPalette::Text, text);
    dark.setColor(QPalette::Button, window);
    dark.setColor(QPalette::ButtonText, text);
    dark.setColor(QPalette::BrightText, Qt::red);
    dark.setColor(QPalette::Link, QColor(61, 174, 233));
    dark.setColor(QPalette::Highlight, QColor(61, 174, 233));
    dark.setColor(QPalette::HighlightedText, base);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        dark.setColor(QPalette::Disabled, role, disabled);
    return dark;
}

bool setDisplayName(desktop::DesktopSession *session, const QString &name);
desktop::DesktopSession *openAs(UiTestHarness &harness, desktop::DesktopSession *person,
                                const QString &profile);

// A window of `person` on the launch plan, with History showing the oldest revision.
bool shootLaunchPlan(UiTestHarness &harness, desktop::DesktopSession *person,
                     const QString &profile, const QString &channel, const QString &path)
{
    auto *session = openAs(harness, person, profile);
    if (!session || !UiTestHarness::openChannel(session, channel))
        return false;
    auto *window = session->window();
    window->resize(1400, 860);
    window->historyDock()->show();
    auto *model = window->historyPanel()->model();
    if (!QTest::qWaitFor([model] { return model->rowCount() >= 3; }, 10000))
        return false;
    window->findChild<QListView *>(QStringLiteral("historyList"))
        ->setCurrentIndex(model->index(model->rowCount() - 1));
    QTest::qWait(300);
    return save(window, path);
}

// The name others see (kind 0), set as a user does in Identity, so windows show "Maya", not npubs.
bool setDisplayName(desktop::DesktopSession *session, const QString &name)
{
    return bool(test::awaitTask(session->services().profiles->publishDisplayName(name)));
}

// Another window of the same person (their key in a profile of its own), as after a restart in
// another language: their own revisions read "You", the others' show display names.
desktop::DesktopSession *openAs(UiTestHarness &harness, desktop::DesktopSession *person,
                                const QString &profile)
{
    const QString dir = QDir(harness.root()).filePath(profile);
    const QString key = QStringLiteral("identity.key");
    if (!QDir().mkpath(dir)
        || !QFile::copy(QDir(person->dataDir()).filePath(key), QDir(dir).filePath(key)))
        return nullptr;
    return harness.openSession(profile);
}

bool save(QWidget *widget, const QString &path)
{
    const bool ok = widget->grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QString out =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("docs/screenshots");
    QDir().mkpath(out);

    UiTestHarness harness;
    auto *maya = harness.openSession(QStringLiteral("maya"));
    auto *jonas = harness.openSession(QStringLiteral("jonas"));
    if (!maya || !jonas || !setDisplayName(maya, QStringLiteral("Maya"))
        || !setDisplayName(jonas, QStringLiteral("Jonas")))
        return 1;
    UiTestHarness::createChannel(maya, QStringLiteral("design"));
    UiTestHarness::seedRevision(maya,
                                QStringLiteral("# Design reviews\n\nEvery Tuesday the design "
                                               "team walks through open mockups.\n"));
    UiTestHarness::createChannel(maya, QStringLiteral("release-notes"));
    UiTestHarness::createChannel(maya, QStringLiteral("launch-plan"));
    for (const QString &text : {kPlanV1, kPlanV2, kPlanV3})
        UiTestHarness::seedRevision(maya, text);
    auto *window = maya->window();
    window->resize(1400, 860);
    auto *pane = window->canvasPane();
    if (!QTest::qWaitFor([pane] { return pane->head() && pane->head()->content == kPlanV3; },
                         10000))
        qWarning("ui_screenshots: the canvas did not reach its third revision in 10 s");
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("main-window.png")));

    window->historyDock()->show();
    auto *model = window->historyPanel()->model();
    if (!QTest::qWaitFor([model] { return model->rowCount() == 3; }, 10000))
        qWarning("ui_screenshots: History did not list three revisions in 10 s");
    auto *list = window->findChild<QListView *>(QStringLiteral("historyList"));
    list->setCurrentIndex(model->index(1)); // its own change: what the second revision did
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("history-diff.png")));
    window->historyDock()->hide();

    // Search: one row per canvas, newest first, author and time, the match highlighted.
    window->searchDock()->show();
    window->resizeDocks({window->searchDock()}, {520}, Qt::Vertical);
    QSignalSpy searched(window->searchPanel(), &ui::SearchPanel::searchFinished);
    window->searchPanel()->search(QStringLiteral("design"));
    searched.wait(10000);
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("search-results.png")));
    window->searchDock()->hide();

    // Jonas edits the same revision Maya is editing; Maya saves second and gets the merge.
    const QString channel = pane->channelId();
    UiTestHarness::openChannel(jonas, channel);
    if (!test::awaitTask(jonas->services().channels->join(channel)))
        return 1;
    pane->startEditing();
    auto *editor = window->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
    editor->setPlainText(
        QString(kPlanV3).replace(QStringLiteral("to the design team first"),
                                 QStringLiteral("to the design and research teams first")));
    UiTestHarness::seedRevision(
        jonas,
        QString(kPlanV3).replace(QStringLiteral("to the design team first"),
                                 QStringLiteral("to the design team in December")));
    pane->save();
    auto *dialog = UiTestHarness::waitForTopLevel(QStringLiteral("conflictDialog"));
    if (!dialog)
        return 1;
    dialog->resize(1100, 700);
    QTest::qWait(300);
    save(dialog, QDir(out).filePath(QStringLiteral("conflict-dialog.png")));
    dialog->close();

    // Typing goes on while a save is under way: what lands is saved, the rest stays an edit.
    pane->session()->discardEdit(); // Maya drops the conflicting edit and starts again
    pane->startEditing();
    editor->moveCursor(QTextCursor::End);
    editor->insertPlainText(QStringLiteral("\n## Next\n\n- Beta for the research team"));
    pane->save(); // the request is on its way; the user keeps typing
    editor->insertPlainText(QStringLiteral("\n- Release notes draft"));
    if (!QTest::qWaitFor(
            [pane] { return pane->session()->state() == canvas::CanvasSession::State::Editing; },
            10000))
        return 1;
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("typed-while-saving.png")));

    // Blame: who last changed each line of the current canvas (Maya's and Jonas's lines).
    window->historyDock()->show();
    auto *details = window->findChild<QTabWidget *>(QStringLiteral("historyDetailTabs"));
    auto *blame = window->findChild<ui::BlameView *>(QStringLiteral("historyBlameView"));
    list->clearSelection();
    list->setCurrentIndex({});
    details->setCurrentWidget(blame);
    if (!QTest::qWaitFor([blame] { return blame->model()->rowCount() > 0; }, 10000))
        qWarning("ui_screenshots: the blame did not arrive in 10 s");
    window->resizeDocks({window->historyDock()}, {760}, Qt::Horizontal);
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("history-blame.png")));
    details->setCurrentIndex(0);
    window->historyDock()->hide();

    // Who is here: Jonas has the canvas open and types while Maya edits it too.
    auto *jonasPane = jonas->window()->canvasPane();
    jonasPane->startEditing();
    QTest::keyClicks(jonasPane->editor()->textEdit(), QStringLiteral("Dates: "));
    auto *presence = window->findChild<ui::PresenceBar *>(QStringLiteral("presenceBar"));
    if (!QTest::qWaitFor([presence] { return !presence->warning().isEmpty(); }, 10000))
        return 1;
    QTest::qWait(300);
    save(window, QDir(out).filePath(QStringLiteral("presence.png")));

    // A change while reading: Jonas reads, Maya saves; his window says so and marks the lines.
    jonasPane->session()->discardEdit();
    auto *jonasWindow = jonas->window();
    jonasWindow->resize(1400, 860);
    editor->moveCursor(QTextCursor::End);
    editor->insertPlainText(QStringLiteral("\n- Release notes reviewed by Jonas"));
    pane->save();
    auto *liveNotice =
        jonasWindow->findChild<ui::LiveChangeNotice *>(QStringLiteral("liveUpdateBanner"));
    if (!QTest::qWaitFor(
            [liveNotice] {
                return liveNotice->isVisible() && !liveNotice->highlightedBlocks().isEmpty();
            },
            10000))
        return 1;
    QTest::qWait(300);
    save(jonasWindow, QDir(out).filePath(QStringLiteral("live-change.png")));
    pane->session()->leaveEditing();

    // The German UI (LANGUAGE=de) in Maya's window, and a dark palette in Jonas's.
    desktop::Translations::install(QLocale(QLocale::German, QLocale::Germany));
    if (!shootLaunchPlan(harness, maya, QStringLiteral("maya-de"), channel,
                         QDir(out).filePath(QStringLiteral("main-window-de.png"))))
        return 1;
    desktop::Translations::install(QLocale(QLocale::English, QLocale::UnitedStates));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(darkPalette());
    if (!shootLaunchPlan(harness, jonas, QStringLiteral("jonas-dark"), channel,
                         QDir(out).filePath(QStringLiteral("main-window-dark.png"))))
        return 1;
    QApplication::setPalette(QApplication::style()->standardPalette());

    // The relay goes away: Jonas's canvas stays on screen, the connection banner says what
    // happens next.
    auto *offline = jonas->window();
    offline->resize(1400, 860);
    harness.relay()->stop();
    auto *banner = offline->findChild<QLabel *>(QStringLiteral("connectionBannerText"));
    if (!QTest::qWaitFor(
            [banner] {
                return banner->isVisible() && banner->text().contains(QStringLiteral("in 2 s"));
            },
            10000))
        return 1;
    save(offline, QDir(out).filePath(QStringLiteral("relay-offline.png")));
    return 0;
}
