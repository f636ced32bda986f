// buzz-canvas-typist: the desktop app as main.cpp builds it, plus a typist, for the crash-recovery
// tests (tests/ui/test_draft_recovery.cpp): a child process cannot be driven by QTest, and the
// shipping app carries no test hooks.
//
//   buzz-canvas-typist --type TEXT [--every MS] [app options...]
//
// After the first canvas is shown it starts editing and types TEXT as a user would, then lets
// autosave do its job. With --every it goes on typing "w1 ", "w2 ", … one word per MS milliseconds
// until the process ends and prints "typed wN" on stdout once each word is in the editor: someone
// typing without a pause, to kill or to signal.

#include "app/desktop/AppOptions.h"
#include "app/desktop/DesktopSession.h"
#include "app/desktop/QuitSignals.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QTimer>

#include <cstdio>

using namespace buzz;

namespace {

struct Typist
{
    QString text;
    int everyMs = 0;
};

// Removes --type and --every from `arguments` and returns what they asked for.
Typist takeTypistOptions(QStringList &arguments)
{
    Typist typist;
    for (int i = 1; i + 1 < arguments.size();) {
        if (arguments[i] == QLatin1String("--type")) {
            typist.text = arguments[i + 1];
        } else if (arguments[i] == QLatin1String("--every")) {
            typist.everyMs = arguments[i + 1].toInt();
        } else {
            ++i;
            continue;
        }
        arguments.remove(i, 2);
    }
    return typist;
}

void type(ui::MainWindow *window, const Typist &typist)
{
    window->canvasPane()->startEditing();
    QPlainTextEdit *editor = window->canvasPane()->editor()->textEdit();
    editor->insertPlainText(typist.text);
    if (typist.everyMs <= 0)
        return;
    auto *typing = new QTimer(editor);
    QObject::connect(typing, &QTimer::timeout, editor, [editor, word = 0]() mutable {
        const QString typed = QStringLiteral("w%1").arg(++word);
        editor->moveCursor(QTextCursor::End);
        editor->insertPlainText(typed + QLatin1Char(' '));
        std::printf("typed %s\n", qPrintable(typed));
        std::fflush(stdout);
    });
    typing->start(typist.everyMs);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication::setOrganizationName(QStringLiteral("Buzz"));
    QApplication::setApplicationName(QStringLiteral("Buzz Canvas"));
    QApplication app(argc, argv);
    QStringList arguments = app.arguments();
    const Typist typist = takeTypistOptions(arguments);
    const auto options =
        desktop::AppOptions::parse(arguments, QProcessEnvironment::systemEnvironment());
    if (options.action != desktop::AppOptions::Action::Run || typist.text.isEmpty()) {
        std::fprintf(stderr, "usage: buzz-canvas-typist --type TEXT [--every MS] [app options]\n");
        return 2;
    }

    desktop::DesktopSession::Options sessionOptions;
    sessionOptions.profileDir = options.profileDir;
    sessionOptions.relayUrl = options.relayUrl;
    sessionOptions.relaySource = options.relaySource;
    desktop::QuitSignals quitSignals; // as main.cpp: SIGTERM/SIGINT/SIGHUP quit like Quit does
    QObject::connect(&quitSignals, &desktop::QuitSignals::quitRequested, &app,
                     [] { QApplication::quit(); });
    desktop::DesktopSession session(sessionOptions);
    QObject::connect(&session, &desktop::DesktopSession::firstCanvasShown, &session,
                     [&session, typist] {
                         QTimer::singleShot(0, session.window(),
                                            [&session, typist] { type(session.window(), typist); });
                     });
    QCoro::connect(session.start(), &session, [&session](bool ok) {
        if (ok)
            return;
        std::fprintf(stderr, "buzz-canvas-typist: %s\n", qPrintable(session.errorString()));
        QApplication::exit(1);
    });
    return QApplication::exec();
}
