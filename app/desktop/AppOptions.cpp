#include "app/desktop/AppOptions.h"

#include <QCommandLineParser>
#include <QDir>

namespace buzz::desktop {

QString AppOptions::helpText()
{
    return QStringLiteral(
        "Usage: buzz-canvas [--relay URL] [--profile DIR]\n"
        "Edit the shared Markdown canvas of Buzz channels.\n"
        "\n"
        "With no relay configured the app runs a relay embedded in the process, creates an "
        "identity\n"
        "and a first channel, and opens its canvas.\n"
        "\n"
        "Options:\n"
        "  --relay URL     use the remote relay at URL (ws://, wss://, http://, https://);\n"
        "                  overrides BUZZ_RELAY_URL and Settings\n"
        "  --profile DIR   keep all state (settings, identity, drafts, embedded relay data) in "
        "DIR\n"
        "  -h, --help      show this help and exit\n"
        "  -v, --version   show the version and exit\n"
        "\n"
        "Environment: BUZZ_RELAY_URL (relay when --relay is not given), BUZZ_PRIVATE_KEY (hex or "
        "nsec,\n"
        "never stored).\n");
}

AppOptions AppOptions::parse(const QStringList &arguments, const QProcessEnvironment &environment)
{
    AppOptions options;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption relay(QStringLiteral("relay"), QString(), QStringLiteral("URL"));
    const QCommandLineOption profile(QStringLiteral("profile"), QString(), QStringLiteral("DIR"));
    const QCommandLineOption help(QStringList {QStringLiteral("h"), QStringLiteral("help")});
    const QCommandLineOption version(QStringList {QStringLiteral("v"), QStringLiteral("version")});
    parser.addOptions({relay, profile, help, version});
    if (!parser.parse(arguments)) {
        options.action = Action::Error;
        options.error = parser.errorText();
        return options;
    }
    if (parser.isSet(help)) {
        options.action = Action::ShowHelp;
        return options;
    }
    if (parser.isSet(version)) {
        options.action = Action::ShowVersion;
        return options;
    }
    if (!parser.positionalArguments().isEmpty()) {
        options.action = Action::Error;
        options.error =
            QStringLiteral("unexpected argument: %1").arg(parser.positionalArguments().first());
        return options;
    }
    if (parser.isSet(relay)) {
        options.relayUrl = parser.value(relay).trimmed();
        options.relaySource = QStringLiteral("--relay");
    } else if (const QString fromEnv =
                   environment.value(QStringLiteral("BUZZ_RELAY_URL")).trimmed();
               !fromEnv.isEmpty()) {
        options.relayUrl = fromEnv;
        options.relaySource = QStringLiteral("BUZZ_RELAY_URL");
    }
    if (options.relayUrl && options.relayUrl->isEmpty()) {
        options.action = Action::Error;
        options.error = QStringLiteral("--relay needs a URL");
        return options;
    }
    if (parser.isSet(profile)) {
        const QString dir = parser.value(profile).trimmed();
        if (dir.isEmpty()) {
            options.action = Action::Error;
            options.error = QStringLiteral("--profile needs a directory");
            return options;
        }
        options.profileDir = QDir(dir).absolutePath();
    }
    return options;
}

} // namespace buzz::desktop
