// Memory bounds of the real executable against clients that will not read: the relay is a child
// process (buzz-mock-relay), the clients raw blocking sockets with a small receive buffer, and the
// relay's resident memory is read from /proc/<pid>/status. Bounds are generous: they separate
// "bounded" from "grows with what the client asks", not one allocator from another. On a
// PostgreSQL run (test_server_memory_pg) the relay keeps its data in a schema of the test pair.

#include "PgTestCluster.h"
#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <optional>

using namespace buzz;
using namespace buzz::relay::test;

namespace {

const QString kRelayBinary = QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");

// A /proc/<pid>/status field in MiB (VmRSS now, VmHWM the peak), or -1.
qint64 statusMiB(qint64 pid, const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong() / 1024;
    }
    return -1;
}

qint64 residentMiB(qint64 pid)
{
    return statusMiB(pid, "VmRSS");
}

// Client connections the relay on `port` still holds: its side of each, established or closed by
// the client and not yet by the relay (/proc/net/tcp, states 01 and 08).
qint64 heldConnections(quint16 port)
{
    QFile table(QStringLiteral("/proc/net/tcp"));
    if (!table.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray local = ":" + QByteArray::number(port, 16).toUpper().rightJustified(4, '0');
    qint64 held = 0;
    for (const QByteArray &line : table.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() > 3 && fields[1].endsWith(local)
            && (fields[3] == "01" || fields[3] == "08"))
            ++held;
    }
    return held;
}

// A WebSocket client on a blocking socket that reads only when told to.
class BlockingWsClient
{
public:
    ~BlockingWsClient()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    // Connects with a `receiveBuffer`-byte kernel buffer and completes the handshake.
    bool open(quint16 port, int receiveBuffer = 4096)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
        timeval timeout {30, 0}; // a relay that stops reading fails the test, never hangs it
        ::setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
            return false;
        if (!send("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                  + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n"))
            return false;
        while (!m_received.contains("\r\n\r\n")) {
            if (!receive(10000))
                return false;
        }
        const bool upgraded = m_received.startsWith("HTTP/1.1 101 ");
        m_received.remove(0, m_received.indexOf("\r\n\r\n") + 4);
        return upgraded;
    }

    // False once the relay closed or reset the connection.
    bool send(const QByteArray &bytes)
    {
        qsizetype at = 0;
        while (at < bytes.size()) {
            const ssize_t sent =
                ::send(m_fd, bytes.constData() + at, size_t(bytes.size() - at), MSG_NOSIGNAL);
            if (sent <= 0)
                return false;
            at += sent;
        }
        return true;
    }

    // The next text frame's payload (skipping control frames), or nullopt.
    std::optional<QByteArray> nextText(int timeoutMs = 10000)
    {
        while (true) {
            if (m_received.size() >= 2) {
                const int opcode = quint8(m_received[0]) & 0x0F;
                qsizetype header = 2;
                quint64 size = quint8(m_received[1]) & 0x7F;
                if (size == 126 && m_received.size() >= 4) {
                    size = (quint64(quint8(m_received[2])) << 8) | quint8(m_received[3]);
                    header = 4;
                } else if (size == 127 && m_received.size() >= 10) {
                    size = 0;
                    for (int i = 0; i < 8; ++i)
                        size = (size << 8) | quint8(m_received[2 + i]);
                    header = 10;
                }
                if (size < 126 || header > 2) {
                    if (m_received.size() >= header + qsizetype(size)) {
                        const QByteArray payload = m_received.mid(header, qsizetype(size));
                        m_received.remove(0, header + qsizetype(size));
                        if (opcode == 0x1)
                            return payload;
                        continue;
                    }
                }
            }
            if (!receive(timeoutMs))
                return std::nullopt;
        }
    }

    static QByteArray maskedFrame(int opcode, const QByteArray &payload)
    {
        QByteArray frame;
        frame.append(char(0x80 | opcode));
        if (payload.size() < 126) {
            frame.append(char(0x80 | payload.size()));
        } else {
            frame.append(char(0x80 | 126));
            frame.append(char(payload.size() >> 8));
            frame.append(char(payload.size() & 0xFF));
        }
        const char key[4] = {0x11, 0x22, 0x33, 0x44};
        frame.append(key, 4);
        for (qsizetype i = 0; i < payload.size(); ++i)
            frame.append(char(payload[i] ^ key[i % 4]));
        return frame;
    }

private:
    bool receive(int timeoutMs)
    {
        pollfd readable {m_fd, POLLIN, 0};
        if (::poll(&readable, 1, timeoutMs) <= 0)
            return false;
        char buffer[65536];
        const ssize_t got = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (got <= 0)
            return false;
        m_received.append(buffer, got);
        return true;
    }

    int m_fd = -1;
    QByteArray m_received;
};

// The value of one /metrics series (0 when absent), over a fresh connection.
std::uint64_t metric(quint16 port, const QByteArray &series)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QByteArray text;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        const QByteArray request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:"
            + QByteArray::number(port) + "\r\nConnection: close\r\n\r\n";
        ::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL);
        char buffer[65536];
        pollfd readable {fd, POLLIN, 0};
        while (::poll(&readable, 1, 10000) > 0) {
            const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
            if (got <= 0)
                break;
            text.append(buffer, got);
            const qsizetype head = text.indexOf("\r\n\r\n");
            const qsizetype lengthAt = text.toLower().indexOf("content-length:");
            if (head > 0 && lengthAt > 0) {
                const qsizetype lineEnd = text.indexOf("\r\n", lengthAt);
                const qsizetype length =
                    text.mid(lengthAt + 15, lineEnd - lengthAt - 15).trimmed().toLongLong();
                if (text.size() >= head + 4 + length)
                    break;
            }
        }
    }
    ::close(fd);
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).trimmed().toULongLong();
    }
    return 0;
}

// The relay on a fresh data directory (SQLite) or PostgreSQL schema, with `arguments`.
quint16 startRelay(QProcess &process, const QTemporaryDir &dataDir, const std::optional<PgUrls> &pg,
                   QStringList arguments = {})
{
    process.setStandardErrorFile(QProcess::nullDevice());
    if (pg)
        arguments << QStringLiteral("--database-url") << QString::fromStdString(pg->writer);
    else
        arguments << QStringLiteral("--data") << dataDir.path();
    return startRelayProcess(process, {kRelayBinary}, arguments);
}

} // namespace

class TestServerMemory : public QObject
{
    Q_OBJECT

private slots:
    void pongsCountAgainstTheOutboundBound();
    void slowReadersStayWithinTheRelayWideBound();
};

// A client that never authenticates and never reads, sending 3 million 125-byte pings: every
// pong counts against the same per-connection bound as any other frame, and the client is cut.
void TestServerMemory::pongsCountAgainstTheOutboundBound()
{
    QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
    QTemporaryDir dataDir;
    QProcess relay;
    const quint16 port = startRelay(relay, dataDir, PgTestCluster::freshStore());
    QVERIFY(port != 0);
    const qint64 baseline = residentMiB(relay.processId());
    BlockingWsClient client;
    QVERIFY(client.open(port));

    QByteArray batch;
    const QByteArray ping = BlockingWsClient::maskedFrame(0x9, QByteArray(125, 'p'));
    for (int i = 0; i < 1000; ++i)
        batch += ping;
    qint64 peak = baseline;
    int sentBatches = 0;
    bool cut = false;
    for (; sentBatches < 3000; ++sentBatches) {
        if (!client.send(batch)) {
            cut = true;
            break;
        }
        if (sentBatches % 25 == 0)
            peak = std::max(peak, residentMiB(relay.processId()));
    }
    peak = std::max(peak, residentMiB(relay.processId()));
    qInfo("%d000 pings sent, %s; relay RSS %lld MiB -> peak %lld MiB", sentBatches,
          cut ? "then cut" : "never cut", baseline, peak);
    QVERIFY2(cut, "a client that never reads its pongs was never cut");
    // The per-connection bound is 64 MiB of unread frames; without it the pongs piled up
    // (21 -> 387 MiB for 3 million, never cut).
    QVERIFY2(peak - baseline < 200,
             qPrintable(QStringLiteral("grew by %1 MiB").arg(peak - baseline)));
    relay.terminate();
    QVERIFY(relay.waitForFinished(10000));
}

// 24 connections ask for ~30 MB of history each and stop reading: the relay holds at most its
// relay-wide outbound bound (256 MiB by default) for them, refusing or cutting the rest, and gives
// the memory back once they close.
void TestServerMemory::slowReadersStayWithinTheRelayWideBound()
{
    QVERIFY2(QFile::exists(kRelayBinary), "build buzz-mock-relay first");
    QTemporaryDir dataDir;
    QProcess relay;
    const quint16 port = startRelay(relay, dataDir, PgTestCluster::freshStore());
    QVERIFY(port != 0);
    const qint64 pid = relay.processId();
    const std::string relayUrl = "ws://127.0.0.1:" + std::to_string(port);
    TestIdentity alice;

    // 1,000 notes of 30 KB: one REQ's history is ~30 MB, under the 32 MiB answer bound.
    const std::string filter = R"({"kinds":[1],"#t":["memory"],"limit":1000})";
    {
        WsTestClient writer(QUrl(QString::fromStdString(relayUrl)));
        QVERIFY(
            writer.connectAndAuthenticate(alice.key, relayUrl, QDateTime::currentSecsSinceEpoch()));
        const std::int64_t now = QDateTime::currentSecsSinceEpoch();
        for (int i = 0; i < 1000; ++i)
            writer.sendEvent(alice.sign(1, now - i % 60, {{"t", "memory"}},
                                        std::to_string(i) + std::string(30000, 'm')));
        for (int i = 0; i < 1000; ++i) {
            const auto ok = writer.waitForType("OK", 30000);
            QVERIFY2(ok.is_array() && ok[2] == true && ok[3] == "", ok.dump().c_str());
        }
    }
    const qint64 baseline = residentMiB(pid);

    constexpr int kReaders = 24;
    std::vector<std::unique_ptr<BlockingWsClient>> readers;
    for (int i = 0; i < kReaders; ++i) {
        auto reader = std::make_unique<BlockingWsClient>();
        QVERIFY(reader->open(port));
        const auto challenge = reader->nextText();
        QVERIFY(challenge.has_value());
        const std::string challengeText =
            nlohmann::json::parse(challenge->toStdString())[1].get<std::string>();
        const auto auth = nostr::nip42::buildAuthEvent(alice.key, relayUrl, challengeText,
                                                       QDateTime::currentSecsSinceEpoch());
        QVERIFY(reader->send(BlockingWsClient::maskedFrame(
            0x1, QByteArray::fromStdString("[\"AUTH\"," + auth.toJson() + "]"))));
        const auto ok = reader->nextText();
        QVERIFY2(ok && ok->contains("true"), ok ? ok->constData() : "no OK");
        readers.push_back(std::move(reader));
    }
    for (auto &reader : readers)
        QVERIFY(reader->send(BlockingWsClient::maskedFrame(
            0x1, QByteArray::fromStdString(R"(["REQ","all",)" + filter + "]"))));

    // Every REQ is settled: its history queued whole (1,000 events), refused, or its
    // connection shed.
    const auto settled = [&] {
        return metric(port, "buzz_ws_history_events_sent_total") / 1000
            + metric(port, "buzz_ws_reads_refused_total{reason=\"outbound_memory\"}")
            + metric(port, "buzz_ws_disconnects_total{reason=\"relay_outbound_memory\"}");
    };
    QElapsedTimer timer;
    timer.start();
    while (settled() < kReaders && timer.elapsed() < 90000)
        QTest::qWait(200);
    const qint64 peak = statusMiB(pid, "VmHWM");
    const qint64 holding = residentMiB(pid);
    qInfo("RSS %lld MiB before, %lld MiB while %d readers hold their answers, peak %lld MiB; "
          "histories queued whole %llu, refused %llu, connections cut %llu",
          baseline, holding, kReaders, peak,
          static_cast<unsigned long long>(metric(port, "buzz_ws_history_events_sent_total") / 1000),
          static_cast<unsigned long long>(
              metric(port, "buzz_ws_reads_refused_total{reason=\"outbound_memory\"}")),
          static_cast<unsigned long long>(
              metric(port, "buzz_ws_disconnects_total{reason=\"relay_outbound_memory\"}")));
    // (A reader whose history was queued whole can be cut afterwards: counted twice.)
    QVERIFY(settled() >= std::uint64_t(kReaders));
    // 730 MB asked for. The bound is 256 MiB of waiting bytes and answers being assembled; on top
    // of it the store's page caches fill, and freed blocks wait in the worker threads' malloc
    // arenas until the next trim. (Without the bound: 107 -> 1,316 MiB for 16 readers.)
    QVERIFY2(peak - baseline < 1000,
             qPrintable(QStringLiteral("peak grew by %1 MiB").arg(peak - baseline)));

    readers.clear();
    timer.restart();
    // What the store's reader connections read stays in their page caches (4 connections, up
    // to 32 MiB each): that much is not the readers'.
    constexpr qint64 kKept = 200;
    while ((heldConnections(port) > 0 || residentMiB(pid) - baseline >= kKept)
           && timer.elapsed() < 20000)
        QTest::qWait(200);
    const qint64 after = residentMiB(pid);
    qInfo("RSS %lld MiB after the readers closed; %lld connections held", after,
          heldConnections(port));
    QCOMPARE(heldConnections(port), qint64(0));
    QVERIFY2(after - baseline < kKept,
             qPrintable(QStringLiteral("kept %1 MiB").arg(after - baseline)));
    relay.terminate();
    QVERIFY(relay.waitForFinished(10000));
}

QTEST_GUILESS_MAIN(TestServerMemory)
#include "test_server_memory.moc"
