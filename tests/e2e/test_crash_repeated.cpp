// Crash harness: several WebSocket clients stream events into a buzz-mock-relay process, which is
// SIGKILLed mid-stream, restarted on the same --data, and killed again — five times. After every
// restart, every event that ever received OK true (in any earlier round) must still be stored: an
// OK is only sent after the transaction committed, and no later crash may lose it either.
// (tests/relay/test_server_crash.cpp covers one kill with one client; this is the repeated,
// concurrent version.)

#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <set>

using namespace buzz;
using namespace buzz::relay::test;

namespace {

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");
constexpr int kRounds = 5;
constexpr int kClients = 4;
constexpr int kEventsPerClient = 150;
constexpr std::size_t kAcksBeforeKill = 60;
// Written right before each SIGKILL, so the kill lands with events in flight however far the relay
// got through the stream while this process waited to be scheduled.
constexpr int kTailEventsPerClient = 25;
// Connecting, authenticating and seeing the socket close wait on signals; the bound only has to end
// a hung run on a machine whose cores are shared with builds.
constexpr int kPatienceMs = 30000;

quint16 startRelay(QProcess &process, const QString &dataDir)
{
    return startRelayProcess(process, {kRelayBinary}, {QStringLiteral("--data"), dataDir});
}

std::string tagOf(int round)
{
    return "crash-r" + std::to_string(round);
}

} // namespace

class TestCrashRepeated : public QObject
{
    Q_OBJECT

private slots:
    void acknowledgedEventsSurviveEveryKill();

private:
    // Every acknowledged id of rounds [0, rounds) is stored by the relay at `relayUrl`.
    void verifySurvivors(const std::string &relayUrl, int rounds);

    TestIdentity m_author;
    std::vector<std::set<std::string>> m_acknowledged = std::vector<std::set<std::string>>(kRounds);
    std::size_t m_storedTotal = 0;
};

void TestCrashRepeated::verifySurvivors(const std::string &relayUrl, int rounds)
{
    WsTestClient reader(QUrl(QString::fromStdString(relayUrl)));
    QVERIFY(reader.connectAndAuthenticate(m_author.key, relayUrl,
                                          QDateTime::currentSecsSinceEpoch(), kPatienceMs));
    m_storedTotal = 0;
    for (int round = 0; round < rounds; ++round) {
        const std::string sub = "r" + std::to_string(round);
        reader.sendReq(sub, {R"({"kinds":[1],"#t":[")" + tagOf(round) + R"("],"limit":1000})"});
        const auto stored = reader.eventsUntilEose(sub, 20000);
        QVERIFY2(stored.has_value(), "no EOSE from the restarted relay");
        std::set<std::string> ids;
        for (const auto &event : *stored)
            ids.insert(event["id"].get<std::string>());
        m_storedTotal += ids.size();
        for (const auto &id : m_acknowledged[std::size_t(round)])
            QVERIFY2(ids.count(id),
                     ("acknowledged event of round " + std::to_string(round)
                      + " lost after a later restart: " + id)
                         .c_str());
    }
}

void TestCrashRepeated::acknowledgedEventsSurviveEveryKill()
{
    QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
    QTemporaryDir dataDir;
    QVERIFY(dataDir.isValid());

    for (int round = 0; round < kRounds; ++round) {
        QProcess relay;
        const quint16 port = startRelay(relay, dataDir.path());
        QVERIFY2(port != 0, "relay did not start on the existing data");
        const std::string relayUrl = "ws://127.0.0.1:" + std::to_string(port);
        if (round > 0) {
            verifySurvivors(relayUrl, round);
            if (QTest::currentTestFailed())
                return;
        }

        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        std::vector<std::unique_ptr<WsTestClient>> writers;
        for (int c = 0; c < kClients; ++c) {
            writers.push_back(
                std::make_unique<WsTestClient>(QUrl(QString::fromStdString(relayUrl))));
            QVERIFY(
                writers.back()->connectAndAuthenticate(m_author.key, relayUrl, now, kPatienceMs));
        }
        auto eventOf = [&](int c, const std::string &label, int i) {
            return m_author.sign(1, now, {{"t", tagOf(round)}},
                                 "round " + std::to_string(round) + " client " + std::to_string(c)
                                     + " " + label + " " + std::to_string(i));
        };
        // Signed up front: between the last acknowledgement seen and the kill only writes happen.
        std::vector<std::vector<nostr::Event>> tails(kClients);
        for (int c = 0; c < kClients; ++c)
            for (int i = 0; i < kTailEventsPerClient; ++i)
                tails[std::size_t(c)].push_back(eventOf(c, "tail event", i));
        // Every client streams without waiting for OKs, so the kill lands with many in flight.
        for (int i = 0; i < kEventsPerClient; ++i)
            for (int c = 0; c < kClients; ++c)
                writers[std::size_t(c)]->sendEvent(eventOf(c, "event", i));
        auto &acknowledged = m_acknowledged[std::size_t(round)];
        auto collect = [&acknowledged](WsTestClient &client, int timeoutMs) {
            const auto ok = client.waitForType("OK", timeoutMs);
            if (ok.is_null())
                return false;
            if (ok[2] == true)
                acknowledged.insert(ok[1].get<std::string>());
            return true;
        };
        QElapsedTimer waiting;
        waiting.start();
        while (acknowledged.size() < kAcksBeforeKill) {
            for (auto &writer : writers)
                collect(*writer, 50);
            QVERIFY2(relay.state() == QProcess::Running, "relay died before the kill");
            QVERIFY2(waiting.elapsed() < 30000, "relay stopped acknowledging before the kill");
        }
        // The stream above may be fully stored by now when this process was descheduled: the
        // tails reach the relay's sockets right before the kill, so the kill lands mid-stream.
        for (int c = 0; c < kClients; ++c) {
            for (const auto &event : tails[std::size_t(c)])
                writers[std::size_t(c)]->sendEvent(event);
            writers[std::size_t(c)]->socket().flush();
        }
        relay.kill(); // SIGKILL: no clean shutdown, no chance to flush anything
        QVERIFY(relay.waitForFinished(kPatienceMs));
        // OKs already on the wire count too: each was sent after its commit. The socket closes
        // only after every frame the relay wrote before dying was received.
        for (auto &writer : writers) {
            QVERIFY(writer->waitDisconnected(kPatienceMs));
            while (collect(*writer, 0)) { }
        }
        constexpr int kSentPerRound = kClients * (kEventsPerClient + kTailEventsPerClient);
        QVERIFY2(acknowledged.size() < std::size_t(kSentPerRound),
                 "the kill came after every event of the round was stored");
        qInfo("round %d: %zu of %d acknowledged before SIGKILL", round + 1, acknowledged.size(),
              kSentPerRound);
    }

    QProcess relay;
    const quint16 port = startRelay(relay, dataDir.path());
    QVERIFY(port != 0);
    verifySurvivors("ws://127.0.0.1:" + std::to_string(port), kRounds);
    std::size_t acknowledgedTotal = 0;
    for (const auto &round : m_acknowledged)
        acknowledgedTotal += round.size();
    qInfo("%d kills: %zu acknowledged events, all %zu present after the last restart "
          "(%zu stored in total, including unacknowledged ones that committed)",
          kRounds, acknowledgedTotal, acknowledgedTotal, m_storedTotal);
    relay.terminate();
    QVERIFY(relay.waitForFinished(kPatienceMs));
}

QTEST_GUILESS_MAIN(TestCrashRepeated)
#include "test_crash_repeated.moc"
