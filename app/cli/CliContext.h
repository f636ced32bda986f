#pragma once

#include "CliArguments.h"
#include "canvas/Identity.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelayError.h"

#include <QJsonValue>
#include <QString>

#include <qcoro/qcorotask.h>

#include <memory>
#include <optional>

namespace buzz::cli {

// Exit codes of the real Buzz CLI (docs/buzz-protocol.md §CLI contract).
enum ExitCode { Ok = 0, Usage = 1, NotFound = 1, Relay = 2, Auth = 3, Other = 4, Conflict = 5 };

// What every command needs: parsed arguments, the identity, the relay connection and the output
// conventions (JSON on stdout; {"error":category,"message":…} on stderr).
class CliContext
{
public:
    explicit CliContext(CliArguments arguments);
    ~CliContext();

    const CliArguments &args() const { return m_args; }

    // Resolves the key: --private-key, else BUZZ_PRIVATE_KEY, else the stored identity.
    // On failure prints the error and returns false (exit code in exitCode()).
    QCoro::Task<bool> loadIdentity(bool required);
    canvas::Identity &identity() { return *m_identity; }

    // Builds the connection from --relay / BUZZ_RELAY_URL (default http://localhost:3000).
    bool connect();
    client::RelayConnection &connection() { return *m_connection; }

    // The --channel (else BUZZ_CHANNEL) value, lower-cased. A missing value or one that is not a
    // channel UUID prints a usage error and returns an empty string, before any network.
    QString requireChannel();
    // An optional --channel: std::nullopt when absent; an empty string after a usage error.
    std::optional<QString> optionalChannel();
    static bool isChannelId(const QString &text); // 8-4-4-4-12 hex digits, either case

    int exitCode() const { return m_exitCode; }

    // Output. On a terminal, control characters in what is written (someone else's text: canvas
    // content, names, the relay's words) are shown escaped, never obeyed; into a pipe or a file
    // the bytes are written unchanged (TerminalText).
    static void printJson(const QJsonValue &value);
    static void printRaw(const QByteArray &bytes);
    static void writeErr(const QByteArray &bytes); // to stderr, escaped the same way
    int usageError(const QString &message);
    int error(const QString &category, const QString &message, int exitCode);
    int relayError(const client::RelayError &error);
    // A line for people on stderr; by the contract in CliApp::usageText it starts "warning: ".
    static void warn(const QString &message);

    static QString identityDir(); // BUZZ_CLI_DIR or the app data dir of "buzz-canvas"
    // Creates identityDir() with mode 0700 whatever the umask (it is where the key is stored);
    // an existing folder is left as it is. False with `error` set on failure.
    static bool ensureIdentityDir(QString &error);
    // A setting in the environment that must stop every command (the retired BUZZ_DATA_DIR).
    static std::optional<QString> environmentProblem();

private:
    CliArguments m_args;
    std::unique_ptr<canvas::Identity> m_identity;
    std::unique_ptr<client::RelayConnection> m_connection;
    int m_exitCode = ExitCode::Ok;
};

} // namespace buzz::cli
