// buzz-canvas: parse options, build the DesktopSession, exec.

#include "BuzzVersion.h"
#include "app/desktop/AppOptions.h"
#include "app/desktop/DesktopSession.h"
#include "app/desktop/QuitSignals.h"
#include "app/desktop/Translations.h"

#include <QApplication>
#include <QIcon>
#include <QMessageBox>
#include <QProcessEnvironment>

#include <cstdio>
#include <optional>
#include <string_view>

using namespace buzz;

namespace {

// --help and --version must work without a display, so they are answered before QApplication
// (which needs a platform plugin) exists.
std::optional<int> answerInformationalOptions(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument(argv[i]);
        if (argument == "--help" || argument == "-h" || argument == "-help") {
            std::fputs(desktop::AppOptions::helpText().toUtf8().constData(), stdout);
            return 0;
        }
        if (argument == "--version" || argument == "-v" || argument == "-version") {
            std::printf("buzz-canvas %s\n", BUZZ_VERSION_FULL);
            return 0;
        }
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    if (const auto exitCode = answerInformationalOptions(argc, argv))
        return *exitCode;
    QApplication::setOrganizationName(QStringLiteral("Buzz"));
    QApplication::setApplicationName(QStringLiteral("Buzz Canvas"));
    QApplication::setApplicationVersion(QStringLiteral(BUZZ_VERSION_FULL));
    QApplication::setDesktopFileName(QStringLiteral("io.github.buzz.Canvas"));
    QApplication app(argc, argv);
    desktop::Translations::install(); // the user's language (LANGUAGE, LANG), Qt's own too

    const auto options =
        desktop::AppOptions::parse(app.arguments(), QProcessEnvironment::systemEnvironment());
    switch (options.action) {
    case desktop::AppOptions::Action::ShowHelp:
        std::fputs(desktop::AppOptions::helpText().toUtf8().constData(), stdout);
        return 0;
    case desktop::AppOptions::Action::ShowVersion:
        std::printf("buzz-canvas %s\n", BUZZ_VERSION_FULL);
        return 0;
    case desktop::AppOptions::Action::Error:
        std::fprintf(stderr, "buzz-canvas: %s (see --help)\n", options.error.toUtf8().constData());
        return 1;
    case desktop::AppOptions::Action::Run:
        break;
    }

    QIcon icon;
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256, 512})
        icon.addFile(QStringLiteral(":/icons/app/%1.png").arg(size));
    QApplication::setWindowIcon(icon);

    desktop::DesktopSession::Options sessionOptions;
    sessionOptions.profileDir = options.profileDir;
    sessionOptions.relayUrl = options.relayUrl;
    sessionOptions.relaySource = options.relaySource;
    // A desktop session ending (SIGTERM), Ctrl+C (SIGINT) or a closed terminal (SIGHUP) quits the
    // way the Quit action does: the session below is torn down, which writes the draft first.
    desktop::QuitSignals quitSignals;
    QObject::connect(&quitSignals, &desktop::QuitSignals::quitRequested, &app,
                     [] { QApplication::quit(); });
    desktop::DesktopSession session(sessionOptions);
    QCoro::connect(session.start(), &session, [&session](bool ok) {
        if (ok)
            return;
        std::fprintf(stderr, "buzz-canvas: %s\n", session.errorString().toUtf8().constData());
        QMessageBox::critical(nullptr, QObject::tr("Buzz Canvas"), session.errorString());
        QApplication::exit(1);
    });
    return QApplication::exec();
}
