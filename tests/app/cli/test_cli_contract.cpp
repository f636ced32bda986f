// What a script relies on from buzz-canvas-cli beyond the happy path: bad input is a usage error
// before any network, an unknown channel is "not found", stdout holds only the result and stderr
// only lines that say what they are, the identity folder is private whatever the umask, and the
// retired BUZZ_DATA_DIR (shared with the relay) is refused instead of guessed.

#include "CliTestSupport.h"

#include <QUuid>

using namespace buzz::test;

namespace {

QString freshChannelId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString errorCategory(const CliRun &run)
{
    return run.error().value(QLatin1String("error")).toString();
}

QString errorMessage(const CliRun &run)
{
    return run.error().value(QLatin1String("message")).toString();
}

// The stderr contract: people's lines say what they are, and a failure ends with the JSON error.
bool stderrFollowsTheContract(const CliRun &run, QByteArray &offending)
{
    const QList<QByteArray> lines = run.errLines();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        const bool last = i == lines.size() - 1;
        if (line.startsWith("warning: ") || line.startsWith("trace: ") || line.startsWith("log: "))
            continue;
        if (last && run.exitCode != 0 && QJsonDocument::fromJson(line).isObject())
            continue;
        offending = line;
        return false;
    }
    return true;
}

// Nothing listens on port 1: a command that reached the network would fail with exit 2.
const QStringList kUnreachable {QStringLiteral("--relay"), QStringLiteral("http://127.0.0.1:1")};

} // namespace

class TestCliContract : public QObject
{
    Q_OBJECT

    CliHarness m_harness;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        QVERIFY(m_harness.startRelay());
    }

    void cleanupTestCase() { m_harness.stopRelay(); }

    void channelMustBeAUuidBeforeAnyNetwork_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("canvas get")
            << QStringList {QStringLiteral("canvas"), QStringLiteral("get")};
        QTest::newRow("canvas set")
            << QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                            QStringLiteral("--content"), QStringLiteral("x")};
        QTest::newRow("canvas history")
            << QStringList {QStringLiteral("canvas"), QStringLiteral("history")};
        QTest::newRow("channels info")
            << QStringList {QStringLiteral("channels"), QStringLiteral("info")};
        QTest::newRow("search") << QStringList {QStringLiteral("search"), QStringLiteral("plans")};
    }

    void channelMustBeAUuidBeforeAnyNetwork()
    {
        QFETCH(QStringList, arguments);
        const CliRun run = m_harness.run(
            arguments + QStringList {QStringLiteral("--channel"), QStringLiteral("not-a-uuid")}
            + kUnreachable);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(errorCategory(run), QStringLiteral("usage"));
        QVERIFY2(errorMessage(run).startsWith(QLatin1String("--channel must be a channel UUID")),
                 run.err.constData());
        QVERIFY(errorMessage(run).contains(QLatin1String("not-a-uuid")));
        QVERIFY(run.out.isEmpty());
    }

    void channelFromTheEnvironmentIsCheckedToo()
    {
        CliCall call;
        call.extraEnvironment.insert(QStringLiteral("BUZZ_CHANNEL"), QStringLiteral("general"));
        const CliRun run = m_harness.run(
            QStringList {QStringLiteral("canvas"), QStringLiteral("get")} + kUnreachable, call);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(errorMessage(run).startsWith(QLatin1String("BUZZ_CHANNEL must be a channel UUID")),
                 run.err.constData());
        // Upper-case hex is a UUID all the same (sent lower-cased): it reaches the network.
        const CliRun upper =
            m_harness.run(QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                                       QStringLiteral("--channel"), freshChannelId().toUpper()}
                          + kUnreachable);
        QCOMPARE(upper.exitCode, 2);
    }

    void unknownChannelIsNotFound_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("get") << "get";
        QTest::newRow("history") << "history";
    }

    void unknownChannelIsNotFound()
    {
        QFETCH(QString, command);
        const QString channel = freshChannelId();
        const CliRun run = m_harness.run(
            {QStringLiteral("canvas"), command, QStringLiteral("--channel"), channel});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(errorCategory(run), QStringLiteral("not_found"));
        QVERIFY2(errorMessage(run).contains(channel), run.err.constData());
        QVERIFY2(run.out.isEmpty(), run.out.constData());
    }

    void knownChannelWithoutCanvasIsStillEmpty()
    {
        const QString channel = m_harness.createChannel(QStringLiteral("contract-empty"));
        QVERIFY(!channel.isEmpty());
        const CliRun get = m_harness.run({QStringLiteral("canvas"), QStringLiteral("get"),
                                          QStringLiteral("--channel"), channel});
        QCOMPARE(get.exitCode, 0);
        QCOMPARE(get.out, QByteArray("null\n"));
        const CliRun history = m_harness.run({QStringLiteral("canvas"), QStringLiteral("history"),
                                              QStringLiteral("--channel"), channel});
        QCOMPARE(history.exitCode, 0);
        QCOMPARE(history.out, QByteArray("[]\n"));
    }

    // A shell without QT_LOGGING_RULES: the client's debug log must not reach the script.
    void failureIsOneJsonLineOnStderr()
    {
        CliCall call;
        call.removedVariables << QStringLiteral("QT_LOGGING_RULES");
        const CliRun run =
            m_harness.run(QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                                       QStringLiteral("--channel"), freshChannelId()}
                              + kUnreachable,
                          call);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.errLines().size(), 1);
        QCOMPARE(errorCategory(run), QStringLiteral("network"));
        QVERIFY(run.out.isEmpty());
    }

    // --trace and the client's log share stderr with the error, each line marked; stdout stays
    // exactly the result.
    void traceAndLogLinesAreMarked()
    {
        const QString channel = m_harness.createChannel(QStringLiteral("contract-trace"));
        CliCall call;
        call.removedVariables << QStringLiteral("QT_LOGGING_RULES");
        const CliRun saved = m_harness.run(
            {QStringLiteral("canvas"), QStringLiteral("set"), QStringLiteral("--channel"), channel,
             QStringLiteral("--content"), QStringLiteral("hi"), QStringLiteral("--trace")},
            call);
        QCOMPARE(saved.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(saved.out).isObject());
        QCOMPARE(saved.out.count('\n'), 1);
        QByteArray offending;
        QVERIFY2(stderrFollowsTheContract(saved, offending), offending.constData());
        QVERIFY(saved.err.contains("trace: "));

        const CliRun failed = m_harness.run(
            QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                         QStringLiteral("--channel"), freshChannelId(), QStringLiteral("--trace")}
                + kUnreachable,
            call);
        QCOMPARE(failed.exitCode, 2);
        QVERIFY2(stderrFollowsTheContract(failed, offending), offending.constData());
        QCOMPARE(errorCategory(failed), QStringLiteral("network"));
    }

    void identityFolderIsPrivateWhateverTheUmask()
    {
        QTemporaryDir parent;
        const QString folder = parent.filePath(QStringLiteral("nested/identity"));
        CliCall call;
        call.key.clear();
        call.cliDir = folder;
        call.umask = 0;
        const CliRun run =
            m_harness.run({QStringLiteral("identity"), QStringLiteral("generate")}, call);
        QCOMPARE(run.exitCode, 0);
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(folder).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0700));
        QCOMPARE(
            ::stat(QFile::encodeName(folder + QStringLiteral("/identity.key")).constData(), &info),
            0);
        QCOMPARE(info.st_mode & 0777, mode_t(0600));
    }

    // BUZZ_DATA_DIR was the relay's database folder too: alone, it is refused with the new name.
    void sharedDataDirVariableIsRefused()
    {
        QTemporaryDir relayData;
        CliCall call;
        call.key.clear();
        call.removedVariables << QStringLiteral("BUZZ_CLI_DIR");
        call.extraEnvironment.insert(QStringLiteral("BUZZ_DATA_DIR"), relayData.path());
        const CliRun run =
            m_harness.run({QStringLiteral("identity"), QStringLiteral("generate")}, call);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(errorCategory(run), QStringLiteral("usage"));
        QVERIFY2(errorMessage(run).startsWith(QLatin1String("BUZZ_DATA_DIR is no longer read")),
                 run.err.constData());
        QVERIFY(errorMessage(run).contains(QLatin1String("BUZZ_CLI_DIR")));
        QVERIFY(QDir(relayData.path()).isEmpty());

        // With the CLI's own variable set, the relay's BUZZ_DATA_DIR in the same shell is no
        // concern of the CLI.
        QTemporaryDir cliHome;
        call.removedVariables.clear();
        call.cliDir = cliHome.path();
        const CliRun both =
            m_harness.run({QStringLiteral("identity"), QStringLiteral("generate")}, call);
        QCOMPARE(both.exitCode, 0);
        QVERIFY(QFile::exists(cliHome.filePath(QStringLiteral("identity.key"))));
        QVERIFY(QDir(relayData.path()).isEmpty());
    }

    void eventSignRefusesNegativeCreatedAt()
    {
        CliCall call;
        call.input = R"({"kind":1,"content":"x","tags":[],"created_at":-1})";
        const CliRun run = m_harness.run({QStringLiteral("event"), QStringLiteral("sign")}, call);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(errorCategory(run), QStringLiteral("usage"));
        QVERIFY2(errorMessage(run).contains(QLatin1String("created_at")), run.err.constData());
        QVERIFY(run.out.isEmpty());
        call.input = R"({"kind":1,"content":"x","tags":[],"created_at":0})";
        QCOMPARE(m_harness.run({QStringLiteral("event"), QStringLiteral("sign")}, call).exitCode,
                 0);
    }
};

QTEST_GUILESS_MAIN(TestCliContract)
#include "test_cli_contract.moc"
