#pragma once

// buzz-canvas-cli and buzz-mock-relay as separate processes, for the CLI suites: one relay per
// suite, one CLI process per call, with the environment a script would give it.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <sys/stat.h>

namespace buzz::test {

inline const QString kCli = QStringLiteral(BUZZ_BINARY_DIR "/app/cli/buzz-canvas-cli");
inline const QString kMockRelay = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");
inline const QString kAliceKey =
    QStringLiteral("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");
inline const QString kAlicePub =
    QStringLiteral("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659");
inline const QString kBobKey =
    QStringLiteral("c90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b14e5c9");

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonValue json() const
    {
        const QJsonDocument document = QJsonDocument::fromJson(out);
        return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    }
    // The JSON error object: the last line of stderr.
    QJsonObject error() const
    {
        return QJsonDocument::fromJson(err.trimmed().split('\n').last()).object();
    }
    QList<QByteArray> errLines() const
    {
        return err.isEmpty() ? QList<QByteArray>() : err.trimmed().split('\n');
    }
};

// How one CLI call differs from the default (Alice's key in BUZZ_PRIVATE_KEY, the suite's
// identity folder in BUZZ_CLI_DIR, the suite's relay).
struct CliCall
{
    QByteArray input;
    QString key = kAliceKey; // empty = no BUZZ_PRIVATE_KEY
    QString cliDir; // empty = the suite's folder
    QProcessEnvironment extraEnvironment; // inserted last
    QStringList removedVariables;
    std::optional<mode_t> umask; // the child's umask
    int timeoutMs = 30000; // the whole call
};

class CliHarness
{
public:
    // Starts buzz-mock-relay on 127.0.0.1:0 with `extra` options; its URL is passed to every
    // call without --relay.
    bool startRelay(const QStringList &extra = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("BUZZ_DATA_DIR")); // in memory, whatever the shell says
        env.remove(QStringLiteral("BUZZ_RELAY_DATA_DIR"));
        m_relay.setProcessEnvironment(env);
        m_relay.start(kMockRelay,
                      QStringList {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}
                          + extra);
        if (!m_relay.waitForStarted(10000))
            return false;
        QByteArray output;
        [[maybe_unused]] const bool settled = QTest::qWaitFor(
            [&] {
                return (output += m_relay.readAllStandardOutput()).contains("listening http://")
                    || m_relay.state() == QProcess::NotRunning;
            },
            20000);
        const auto match = QRegularExpression(QStringLiteral("listening (http://\\S+)"))
                               .match(QString::fromUtf8(output));
        m_relayUrl = match.hasMatch() ? match.captured(1) : QString();
        return !m_relayUrl.isEmpty();
    }

    void stopRelay()
    {
        m_relay.terminate();
        m_relay.waitForFinished(10000);
    }

    QString relayUrl() const { return m_relayUrl; }
    QString home() const { return m_home.path(); }

    CliRun run(const QStringList &arguments, const CliCall &call = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"BUZZ_RELAY_URL", "BUZZ_CHANNEL", "BUZZ_USE_KEYCHAIN",
                                 "BUZZ_DATA_DIR", "BUZZ_CLI_DIR", "BUZZ_PRIVATE_KEY"})
            env.remove(QString::fromLatin1(name));
        if (!call.key.isEmpty())
            env.insert(QStringLiteral("BUZZ_PRIVATE_KEY"), call.key);
        env.insert(QStringLiteral("BUZZ_CLI_DIR"), call.cliDir.isEmpty() ? home() : call.cliDir);
        for (const QString &name : call.removedVariables)
            env.remove(name);
        env.insert(call.extraEnvironment);
        process.setProcessEnvironment(env);
        if (call.umask) {
            const mode_t mask = *call.umask;
            process.setChildProcessModifier([mask] { ::umask(mask); });
        }
        QStringList full = arguments;
        if (!m_relayUrl.isEmpty() && !arguments.contains(QStringLiteral("--relay")))
            full << QStringLiteral("--relay") << m_relayUrl;
        process.start(kCli, full);
        if (!process.waitForStarted(10000))
            return {};
        process.write(call.input);
        process.closeWriteChannel();
        process.waitForFinished(call.timeoutMs);
        return CliRun {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                       process.readAllStandardOutput(), process.readAllStandardError()};
    }

    // A new channel owned by Alice; its id, or an empty string.
    QString createChannel(const QString &name)
    {
        const CliRun created = run(
            {QStringLiteral("channels"), QStringLiteral("create"), QStringLiteral("--name"), name});
        return created.json().toObject().value(QLatin1String("id")).toString();
    }

private:
    QProcess m_relay;
    QString m_relayUrl;
    QTemporaryDir m_home;
};

} // namespace buzz::test
