// buzz-mock-relay as QA starts it, as a process: what it says on stderr at start about read
// routing, whether a routed read then reaches a replica, where its SQLite files go, and that a
// second relay on the same files refuses to start.

#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace {

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");
const QByteArray kSomeone = QByteArray(64, 'a'); // the X-Pubkey dev header needs only a pubkey

// The environment a shell would pass, without the variables these tests set themselves.
QProcessEnvironment cleanEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"BUZZ_REPLICA_READ_MAX_AGE_MS", "BUZZ_DATA_DIR", "BUZZ_RELAY_DATA_DIR",
                             "BUZZ_BIND_ADDR", "BUZZ_DB_READ_POOL_SIZE"})
        environment.remove(QString::fromLatin1(name));
    return environment;
}

struct RelayRun
{
    std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
    quint16 port = 0;
    QByteArray stderrText;

    ~RelayRun()
    {
        if (process->state() != QProcess::NotRunning) {
            process->terminate();
            process->waitForFinished(10000);
        }
    }
};

// Starts the relay on 127.0.0.1:0 and waits for its listening line (port 0 if it exited instead).
void startRelay(RelayRun &run, const QStringList &arguments,
                const QProcessEnvironment &environment = cleanEnvironment())
{
    run.process->setProcessEnvironment(environment);
    run.process->start(kRelayBinary,
                       QStringList {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}
                           + arguments);
    QVERIFY(run.process->waitForStarted(10000));
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += run.process->readAllStandardOutput()).contains('\n')
                                 || run.process->state() == QProcess::NotRunning,
                             20000);
    run.stderrText = run.process->readAllStandardError();
    if (!out.startsWith("listening http://"))
        return;
    const QByteArray hostPort = out.mid(int(qstrlen("listening http://"))).trimmed();
    run.port = quint16(hostPort.mid(hostPort.lastIndexOf(':') + 1).toUInt());
}

// The X-Buzz-Read-Route of a display (routed) count, or an empty string on failure.
QByteArray routeOfDisplayCount(QNetworkAccessManager &network, quint16 port)
{
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/count").arg(port)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request.setRawHeader("X-Pubkey", kSomeone);
    std::unique_ptr<QNetworkReply> reply(network.post(request, QByteArray(R"([{"kinds":[1]}])")));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    if (!reply->isFinished() && !finished.wait(10000))
        return {};
    if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return {};
    return reply->rawHeader("X-Buzz-Read-Route");
}

} // namespace

class TestMockRelayProcess : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(QFile::exists(kRelayBinary), qPrintable(kRelayBinary)); }

    // `--replicas 1 --replica-lag-ms N` alone routes nothing; the start says so and names the fix.
    void replicasWithoutBudgetSayRoutingIsOff()
    {
        RelayRun run;
        startRelay(run,
                   {QStringLiteral("--replicas"), QStringLiteral("1"),
                    QStringLiteral("--replica-lag-ms"), QStringLiteral("50"),
                    QStringLiteral("--dev-pubkey-header")});
        QVERIFY2(run.port != 0, run.stderrText.constData());
        QVERIFY2(run.stderrText.contains("read routing: off, no budget"),
                 run.stderrText.constData());
        QVERIFY(run.stderrText.contains("--read-max-age-ms"));
        QNetworkAccessManager network;
        const QByteArray route = routeOfDisplayCount(network, run.port);
        QVERIFY2(route.startsWith("writer"), route.constData());
    }

    void readMaxAgeFlagRoutesDisplayReadsToTheReplica()
    {
        RelayRun run;
        startRelay(run,
                   {QStringLiteral("--replicas"), QStringLiteral("1"),
                    QStringLiteral("--replica-lag-ms"), QStringLiteral("50"),
                    QStringLiteral("--read-max-age-ms"), QStringLiteral("5000"),
                    QStringLiteral("--dev-pubkey-header")});
        QVERIFY2(run.port != 0, run.stderrText.constData());
        QVERIFY2(run.stderrText.contains("read routing: on, budget 5000 ms (from "
                                         "--read-max-age-ms)"),
                 run.stderrText.constData());
        QNetworkAccessManager network;
        // The replica proves its age once it has replayed a heartbeat (every 500 ms).
        QByteArray route;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (route = routeOfDisplayCount(network, run.port)).startsWith("replica"),
            route.constData(), 15000);
    }

    // The relay's own variable puts its SQLite files where it says.
    void relayDataDirVariableHoldsTheDatabase()
    {
        QTemporaryDir dir;
        QProcessEnvironment environment = cleanEnvironment();
        environment.insert(QStringLiteral("BUZZ_RELAY_DATA_DIR"), dir.path());
        {
            RelayRun run;
            startRelay(run, {}, environment);
            QVERIFY2(run.port != 0, run.stderrText.constData());
        }
        QVERIFY2(QFile::exists(dir.filePath(QStringLiteral("relay.sqlite3"))),
                 qPrintable(QDir(dir.path()).entryList(QDir::AllEntries).join(u' ')));
    }

    // Two relays on one --data would both serve one SQLite file, and neither would deliver live
    // what the other stored: the second refuses to start and says who holds the directory.
    void secondRelayOnTheSameDataIsRefused()
    {
        QTemporaryDir dir;
        RelayRun first;
        startRelay(first,
                   {QStringLiteral("--data"), dir.path(), QStringLiteral("--dev-pubkey-header")});
        QVERIFY2(first.port != 0, first.stderrText.constData());
        RelayRun second;
        startRelay(second, {QStringLiteral("--data"), dir.path()});
        QCOMPARE(second.port, quint16(0));
        QTRY_COMPARE_WITH_TIMEOUT(second.process->state(), QProcess::NotRunning, 10000);
        QCOMPARE(second.process->exitCode(), 1);
        const QByteArray error = second.stderrText + second.process->readAllStandardError();
        const QByteArray expected = "data directory " + dir.path().toUtf8()
            + " is in use by another relay (pid " + QByteArray::number(first.process->processId())
            + ")";
        QVERIFY2(error.contains(expected), error.constData());
        // The first still serves.
        QNetworkAccessManager network;
        QVERIFY(!routeOfDisplayCount(network, first.port).isEmpty());
    }

    // A shell that exported BUZZ_DATA_DIR for buzz-canvas-cli's identity: the relay refuses to
    // start instead of writing its database next to the key.
    void cliDataDirVariableIsNotTheRelaysFolder()
    {
        QTemporaryDir cliHome;
        QProcessEnvironment environment = cleanEnvironment();
        environment.insert(QStringLiteral("BUZZ_DATA_DIR"), cliHome.path());
        RelayRun run;
        startRelay(run, {}, environment);
        QCOMPARE(run.port, quint16(0));
        QTRY_COMPARE_WITH_TIMEOUT(run.process->state(), QProcess::NotRunning, 10000);
        QCOMPARE(run.process->exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.process->exitCode(), 1);
        const QByteArray error = run.stderrText + run.process->readAllStandardError();
        QVERIFY2(error.startsWith("buzz-mock-relay: BUZZ_DATA_DIR is no longer read"),
                 error.constData());
        QVERIFY(error.contains("BUZZ_RELAY_DATA_DIR"));
        QVERIFY2(QDir(cliHome.path()).isEmpty(),
                 qPrintable(QDir(cliHome.path()).entryList(QDir::AllEntries).join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TestMockRelayProcess)

#include "test_mock_relay_process.moc"
