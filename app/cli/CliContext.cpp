#include "CliContext.h"

#include "CliLog.h"
#include "TerminalText.h"
#include "net/client/RequestLog.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cstdio>

#include <unistd.h>

namespace buzz::cli {

CliContext::CliContext(CliArguments arguments)
    : m_args(std::move(arguments))
{
    // The CLI never waits on a desktop keychain prompt unless asked to.
    const bool keychain = qEnvironmentVariableIsSet("BUZZ_USE_KEYCHAIN");
    m_identity = std::make_unique<canvas::Identity>(
        identityDir(),
        keychain ? canvas::Identity::KeychainUse::Try : canvas::Identity::KeychainUse::Never);
}

CliContext::~CliContext() = default;

QString CliContext::identityDir()
{
    const QString fromEnv = qEnvironmentVariable("BUZZ_CLI_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/buzz-canvas");
}

std::optional<QString> CliContext::environmentProblem()
{
    // BUZZ_DATA_DIR named this folder and buzz-mock-relay's database folder alike, so a relay
    // started in the same shell wrote its SQLite files next to the key. Falling back to the
    // default folder instead would silently switch identities.
    if (qEnvironmentVariableIsEmpty("BUZZ_CLI_DIR")
        && !qEnvironmentVariableIsEmpty("BUZZ_DATA_DIR"))
        return QStringLiteral("BUZZ_DATA_DIR is no longer read (it named buzz-mock-relay's "
                              "database folder too): set BUZZ_CLI_DIR for the CLI's identity "
                              "folder, and BUZZ_RELAY_DATA_DIR for the relay's");
    return std::nullopt;
}

bool CliContext::ensureIdentityDir(QString &error)
{
    const QString path = identityDir();
    if (QFileInfo(path).isDir())
        return true;
    const QFileDevice::Permissions ownerOnly =
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()) || !QDir().mkdir(path, ownerOnly)) {
        error = QStringLiteral("cannot create the identity folder ") + path;
        return false;
    }
    // mkdir's mode is filtered by the umask; the folder of a private key is the owner's alone.
    if (!QFile::setPermissions(path, ownerOnly)) {
        error = QStringLiteral("cannot make the identity folder private: ") + path;
        return false;
    }
    return true;
}

QCoro::Task<bool> CliContext::loadIdentity(bool required)
{
    if (const auto key = m_args.option(QStringLiteral("private-key"))) {
        const auto used = m_identity->useExplicit(*key);
        if (!used) {
            m_exitCode = error(QStringLiteral("auth"),
                               QStringLiteral("--private-key: ") + used.error(), ExitCode::Auth);
            co_return false;
        }
    } else {
        co_await m_identity->load(qgetenv("BUZZ_PRIVATE_KEY"));
    }
    if (!m_identity->hasKey() && required) {
        QString message = QStringLiteral("no identity: pass --private-key, set BUZZ_PRIVATE_KEY, "
                                         "or run `buzz-canvas-cli identity generate`");
        if (!m_identity->lastError().isEmpty())
            message += QStringLiteral(" (") + m_identity->lastError() + QLatin1Char(')');
        m_exitCode = error(QStringLiteral("auth"), message, ExitCode::Auth);
        co_return false;
    }
    co_return m_identity->hasKey();
}

bool CliContext::connect()
{
    QString text =
        m_args.option(QStringLiteral("relay")).value_or(qEnvironmentVariable("BUZZ_RELAY_URL"));
    if (text.isEmpty())
        text = QStringLiteral("http://localhost:3000");
    const QUrl url = client::RelayConnection::parseRelayUrl(text);
    if (url.isEmpty()) {
        m_exitCode = usageError(QStringLiteral("invalid relay URL: ") + text);
        return false;
    }
    m_connection = std::make_unique<client::RelayConnection>(url, m_identity->signer());
    if (m_args.flag(QStringLiteral("trace"))) {
        QObject::connect(m_connection->requestLog(), &client::RequestLog::entryAdded,
                         [](const client::RequestLogEntry &entry) {
                             // The route and a refusal's words are the relay's text.
                             writeErr("trace: " + client::RequestLog::formatLine(entry).toUtf8()
                                      + '\n');
                         });
    }
    return true;
}

bool CliContext::isChannelId(const QString &text)
{
    static const QRegularExpression uuid(QStringLiteral(
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"));
    return uuid.match(text).hasMatch();
}

QString CliContext::requireChannel()
{
    const auto option = m_args.option(QStringLiteral("channel"));
    const QString channel = option.value_or(qEnvironmentVariable("BUZZ_CHANNEL"));
    if (channel.isEmpty()) {
        m_exitCode = usageError(QStringLiteral("--channel is required"));
        return {};
    }
    if (!isChannelId(channel)) {
        m_exitCode = usageError(
            QStringLiteral("%1 must be a channel UUID "
                           "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), got %2")
                .arg(option ? QStringLiteral("--channel") : QStringLiteral("BUZZ_CHANNEL"),
                     channel));
        return {};
    }
    return channel.toLower();
}

std::optional<QString> CliContext::optionalChannel()
{
    if (!m_args.option(QStringLiteral("channel")))
        return std::nullopt;
    return requireChannel();
}

void CliContext::printJson(const QJsonValue &value)
{
    QByteArray bytes;
    if (value.isObject())
        bytes = QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    else if (value.isArray())
        bytes = QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    else if (value.isNull())
        bytes = "null";
    else
        bytes = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    bytes += '\n';
    printRaw(bytes);
}

void CliContext::printRaw(const QByteArray &bytes)
{
    // On a terminal, canvas text and names must not drive it (TerminalText); a pipe or a file
    // gets the bytes as they are. JSON stays JSON either way: `\u001b` is a JSON escape too.
    const QByteArray shown = TerminalText::forDescriptor(STDOUT_FILENO, bytes);
    std::fwrite(shown.constData(), 1, static_cast<std::size_t>(shown.size()), stdout);
    std::fflush(stdout);
}

void CliContext::writeErr(const QByteArray &bytes)
{
    const QByteArray shown = TerminalText::forDescriptor(STDERR_FILENO, bytes);
    std::fwrite(shown.constData(), 1, static_cast<std::size_t>(shown.size()), stderr);
    std::fflush(stderr);
}

void CliContext::warn(const QString &message)
{
    writeErr(message.toUtf8() + '\n');
}

int CliContext::error(const QString &category, const QString &message, int exitCode)
{
    const QJsonObject object {{QStringLiteral("error"), category},
                              {QStringLiteral("message"), message}};
    writeErr(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n');
    CliLog::close();
    m_exitCode = exitCode;
    return exitCode;
}

int CliContext::usageError(const QString &message)
{
    return error(QStringLiteral("usage"), message, ExitCode::Usage);
}

int CliContext::relayError(const client::RelayError &relayError)
{
    return error(relayError.cliCategory(), relayError.detail, relayError.cliExitCode());
}

} // namespace buzz::cli
