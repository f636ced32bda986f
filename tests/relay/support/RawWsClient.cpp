#include "RawWsClient.h"

#include <QElapsedTimer>
#include <QSignalSpy>

#include <random>

namespace buzz::relay::test {

bool RawWsClient::open(quint16 port, int timeoutMs)
{
    QSignalSpy connected(&m_socket, &QTcpSocket::connected);
    m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!connected.wait(timeoutMs))
        return false;
    QObject::connect(&m_socket, &QTcpSocket::readyRead, [this] {
        m_received += m_socket.readAll();
        if (!m_upgraded) {
            const qsizetype end = m_received.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            m_upgraded = m_received.startsWith("HTTP/1.1 101 ");
            m_received.remove(0, end + 4);
        }
    });
    m_socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                   + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n");
    QElapsedTimer timer;
    timer.start();
    while (!m_upgraded && isConnected() && timer.elapsed() < timeoutMs) {
        QSignalSpy ready(&m_socket, &QTcpSocket::readyRead);
        ready.wait(50);
    }
    return m_upgraded;
}

void RawWsClient::sendFrame(int opcode, const QByteArray &payload, bool masked)
{
    QByteArray frame;
    frame.append(char(0x80 | opcode));
    const char maskBit = masked ? char(0x80) : char(0);
    const auto size = quint64(payload.size());
    if (size < 126) {
        frame.append(char(maskBit | char(size)));
    } else if (size <= 0xFFFF) {
        frame.append(char(maskBit | 126));
        frame.append(char(size >> 8));
        frame.append(char(size & 0xFF));
    } else {
        frame.append(char(maskBit | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            frame.append(char((size >> shift) & 0xFF));
    }
    QByteArray body = payload;
    if (masked) {
        static std::mt19937 random(20261203);
        char key[4];
        for (char &byte : key)
            byte = char(random() & 0xFF);
        frame.append(key, 4);
        for (qsizetype i = 0; i < body.size(); ++i)
            body[i] = char(body[i] ^ key[i % 4]);
    }
    m_socket.write(frame + body);
}

std::vector<RawWsClient::Frame> RawWsClient::frames() const
{
    std::vector<Frame> frames;
    qsizetype at = 0;
    const auto byte = [this](qsizetype i) {
        return quint8(m_received[i]);
    };
    while (at + 2 <= m_received.size()) {
        quint64 size = byte(at + 1) & 0x7F;
        qsizetype header = 2;
        if (size == 126) {
            if (at + 4 > m_received.size())
                break;
            size = (quint64(byte(at + 2)) << 8) | byte(at + 3);
            header = 4;
        } else if (size == 127) {
            if (at + 10 > m_received.size())
                break;
            size = 0;
            for (int i = 0; i < 8; ++i)
                size = (size << 8) | byte(at + 2 + i);
            header = 10;
        }
        if (at + header + qsizetype(size) > m_received.size())
            break;
        frames.push_back({byte(at) & 0x0F, m_received.mid(at + header, qsizetype(size))});
        at += header + qsizetype(size);
    }
    return frames;
}

bool RawWsClient::hasFrame(int opcode) const
{
    for (const Frame &frame : frames()) {
        if (frame.opcode == opcode)
            return true;
    }
    return false;
}

bool RawWsClient::waitForFrame(int opcode, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!hasFrame(opcode)) {
        if (!isConnected() || timer.elapsed() > timeoutMs)
            return hasFrame(opcode);
        QSignalSpy ready(&m_socket, &QTcpSocket::readyRead);
        ready.wait(50);
    }
    return true;
}

bool RawWsClient::waitClosed(int timeoutMs)
{
    if (!isConnected())
        return true;
    QSignalSpy gone(&m_socket, &QTcpSocket::disconnected);
    return gone.wait(timeoutMs) || !isConnected();
}

} // namespace buzz::relay::test
