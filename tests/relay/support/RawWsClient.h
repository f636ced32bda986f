#pragma once

#include <QByteArray>
#include <QTcpSocket>

#include <vector>

namespace buzz::relay::test {

// A WebSocket client written byte by byte, for what QWebSocket will not send: unmasked frames,
// floods of control frames. It runs on the test's thread (which is the in-process relay's): every
// wait spins the event loop.
class RawWsClient
{
public:
    struct Frame
    {
        int opcode = 0;
        QByteArray payload;
    };

    // Connects and completes the opening handshake (101); false otherwise.
    bool open(quint16 port, int timeoutMs = 5000);
    // Sends one final frame; `masked` as RFC 6455 §5.3 requires of a client.
    void sendFrame(int opcode, const QByteArray &payload, bool masked = true);

    // Frames received so far (after the handshake), in order; a partial frame is left out.
    std::vector<Frame> frames() const;
    // Waits until a frame of `opcode` arrived (true) or the relay closed / the timeout passed.
    bool waitForFrame(int opcode, int timeoutMs = 5000);
    bool waitClosed(int timeoutMs = 5000);
    bool isConnected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    QTcpSocket &socket() { return m_socket; }

    static constexpr int kText = 0x1;
    static constexpr int kClose = 0x8;
    static constexpr int kPing = 0x9;
    static constexpr int kPong = 0xA;

private:
    bool hasFrame(int opcode) const;

    QTcpSocket m_socket;
    QByteArray m_received; // after the handshake's head
    bool m_upgraded = false;
};

} // namespace buzz::relay::test
