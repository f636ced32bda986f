// Memory bounds of the real executable against clients that will not read: the relay is a child
// process (buzz-mock-relay), the clients raw blocking sockets with a small receive buffer, and the
// relay's resident memory is read from /proc/<pid>/status. Bounds are generous: they separate
// "bounded" from "grows with what the client asks", not one allocator from another. On a
// PostgreSQL run (test_server_memory_pg) the relay keeps its data in a schema of the test pair.

#include "PgTestCluster.h"
#include "RelayProcess.h"
#include "RelayTestFixture.h"

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

// Resident set of `pid` in MiB, or -1.
qint64 residentMiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() / 1024;
    }
    return -1;
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

QTEST_GUILESS_MAIN(TestServerMemory)
#include "test_server_memory.moc"
