// Crash safety: a client streams events over WebSocket to a buzz-mock-relay process, the process is
// SIGKILLed mid-stream, restarted on the same --data, and every event that had received OK true
// must still be there (an OK is only sent after the transaction committed). On a PostgreSQL run
// (test_server_crash_pg) the relay keeps its data in a schema of the test pair's primary
// (--database-url) instead, and an OK comes only after the PostgreSQL COMMIT. A write-ahead log
// damaged after the kill is refused at the restart instead of silently losing the commits after
// the damage (SQLite only).

#include "PgTestCluster.h"
#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"

#include <QDateTime>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <set>

using namespace buzz;
using namespace buzz::relay::test;

namespace {

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");

// The relay on `dataDir` (SQLite), or on the PostgreSQL schema `pg` names when given.
quint16 startRelay(QProcess &process, const QString &dataDir, const std::optional<PgUrls> &pg)
{
    if (pg)
        return startRelayProcess(
            process, {kRelayBinary},
            {QStringLiteral("--database-url"), QString::fromStdString(pg->writer)});
    return startRelayProcess(process, {kRelayBinary}, {QStringLiteral("--data"), dataDir});
}

} // namespace

class TestServerCrash : public QObject
{
    Q_OBJECT

private slots:
    void acknowledgedEventsSurviveSigkill();
    void damagedWalAfterSigkillIsRefused();
};

void TestServerCrash::acknowledgedEventsSurviveSigkill()
{
    QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
    QTemporaryDir dataDir;
    QVERIFY(dataDir.isValid());
    const std::optional<PgUrls> pg = PgTestCluster::freshStore(); // one schema for both runs
    TestIdentity alice;

    QProcess relay;
    const quint16 port = startRelay(relay, dataDir.path(), pg);
    QVERIFY(port != 0);
    const std::string relayUrl = "ws://127.0.0.1:" + std::to_string(port);
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();

    WsTestClient ws(QUrl(QString::fromStdString(relayUrl)));
    QVERIFY(ws.connectAndAuthenticate(alice.key, relayUrl, now));

    // Stream without waiting for each OK, collect OKs as they come, and kill the process once a
    // good number are acknowledged while many more are still in flight.
    constexpr int kTotal = 400;
    std::vector<nostr::Event> events;
    for (int i = 0; i < kTotal; ++i) {
        events.push_back(alice.sign(1, now, {{"t", "crash"}}, "event " + std::to_string(i)));
        ws.sendEvent(events.back());
    }
    std::set<std::string> acknowledged;
    while (acknowledged.size() < 50) {
        const auto ok = ws.waitForType("OK", 15000);
        QVERIFY2(!ok.is_null(), "relay stopped acknowledging before the kill");
        if (ok[2] == true)
            acknowledged.insert(ok[1].get<std::string>());
    }
    relay.kill(); // SIGKILL: no clean shutdown
    QVERIFY(relay.waitForFinished(10000));
    // OKs that were already on the wire count too: they were sent after their commit.
    while (true) {
        const auto ok = ws.waitForType("OK", 0);
        if (ok.is_null())
            break;
        if (ok[2] == true)
            acknowledged.insert(ok[1].get<std::string>());
    }
    QVERIFY(ws.waitDisconnected(5000));
    QVERIFY2(acknowledged.size() < std::size_t(kTotal),
             "the kill came after every event was stored");

    QProcess restarted;
    const quint16 port2 = startRelay(restarted, dataDir.path(), pg);
    QVERIFY(port2 != 0);
    const std::string relayUrl2 = "ws://127.0.0.1:" + std::to_string(port2);
    WsTestClient reader(QUrl(QString::fromStdString(relayUrl2)));
    QVERIFY(
        reader.connectAndAuthenticate(alice.key, relayUrl2, QDateTime::currentSecsSinceEpoch()));
    reader.sendReq("all", {R"({"kinds":[1],"#t":["crash"],"limit":1000})"});
    const auto stored = reader.eventsUntilEose("all", 15000);
    QVERIFY(stored.has_value());
    std::set<std::string> storedIds;
    for (const auto &event : *stored)
        storedIds.insert(event["id"].get<std::string>());
    for (const auto &id : acknowledged)
        QVERIFY2(storedIds.count(id), ("acknowledged event lost: " + id).c_str());
    qInfo("acknowledged %zu of %d before SIGKILL; %zu stored after restart", acknowledged.size(),
          kTotal, storedIds.size());
    restarted.terminate();
    QVERIFY(restarted.waitForFinished(10000));
    QCOMPARE(restarted.exitStatus(), QProcess::NormalExit); // SIGTERM is a clean shutdown
    QCOMPARE(restarted.exitCode(), 0);
}

void TestServerCrash::damagedWalAfterSigkillIsRefused()
{
    // The write-ahead log is SQLite's; PostgreSQL guards its own.
    if (PgTestCluster::selected())
        QSKIP("SQLite's write-ahead log only");
    QTemporaryDir dataDir;
    QVERIFY(dataDir.isValid());
    TestIdentity alice;
    QProcess relay;
    const quint16 port = startRelay(relay, dataDir.path(), std::nullopt);
    QVERIFY(port != 0);
    const std::string relayUrl = "ws://127.0.0.1:" + std::to_string(port);
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    WsTestClient ws(QUrl(QString::fromStdString(relayUrl)));
    QVERIFY(ws.connectAndAuthenticate(alice.key, relayUrl, now));
    // 300 events in 15 bursts, each acknowledged before the next: many commits in the log, and
    // fewer frames than a small store's checkpoint threshold (WalCheckpointer::kMinPages), so no
    // checkpoint restarts the log under the damage.
    int acknowledged = 0;
    for (int burst = 0; burst < 15; ++burst) {
        for (int i = 0; i < 20; ++i)
            ws.sendEvent(alice.sign(1, now, {{"t", "wal"}},
                                    "event " + std::to_string(burst) + "/" + std::to_string(i)));
        for (int i = 0; i < 20; ++i) {
            const auto ok = ws.waitForType("OK", 15000);
            QVERIFY2(!ok.is_null() && ok[2] == true, "an event was not acknowledged");
            ++acknowledged;
        }
    }
    relay.kill();
    QVERIFY(relay.waitForFinished(10000));
    const QString wal = dataDir.filePath(QStringLiteral("relay.sqlite3-wal"));
    const qint64 walBytes = QFileInfo(wal).size();
    QVERIFY2(walBytes > 64 * 1024, "the acknowledged events were checkpointed out of the log");
    {
        QFile file(wal);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek(walBytes / 2));
        QByteArray bytes = file.read(32);
        for (char &byte : bytes)
            byte = char(~byte);
        QVERIFY(file.seek(walBytes / 2));
        QCOMPARE(file.write(bytes), qint64(32));
    }

    QProcess restarted;
    QCOMPARE(startRelay(restarted, dataDir.path(), std::nullopt), quint16(0));
    QTRY_COMPARE_WITH_TIMEOUT(restarted.state(), QProcess::NotRunning, 10000);
    QCOMPARE(restarted.exitCode(), 1);
    const QByteArray error = restarted.readAllStandardError();
    const QByteArray expected =
        QByteArray("relay database write-ahead log ") + wal.toUtf8() + " is damaged";
    QVERIFY2(error.contains(expected), error.constData());
    qInfo("%d acknowledged, WAL %lld bytes: %s", acknowledged, walBytes, error.constData());
}

QTEST_GUILESS_MAIN(TestServerCrash)
#include "test_server_crash.moc"
