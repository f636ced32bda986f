#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace buzz::desktop {

// The desktop app's command line: --relay URL, --profile DIR, --version, --help (plus Qt's own
// options, which QApplication has already removed from the list).
struct AppOptions
{
    enum class Action { Run, ShowHelp, ShowVersion, Error };

    Action action = Action::Run;
    QString error; // Action::Error: one line for stderr
    std::optional<QString> relayUrl; // --relay, else BUZZ_RELAY_URL
    QString relaySource; // "--relay" or "BUZZ_RELAY_URL" (shown in Settings)
    std::optional<QString> profileDir; // --profile (absolute)

    static AppOptions parse(const QStringList &arguments, const QProcessEnvironment &environment);
    static QString helpText();
};

} // namespace buzz::desktop
