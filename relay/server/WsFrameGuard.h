#pragma once

#include <QObject>

#include <array>
#include <cstdint>
#include <functional>
#include <string>

class QTcpSocket;

namespace buzz::relay {

// Reads the client's frame headers off a WebSocket's raw socket before QWebSocket reads them, for
// what QWebSocket 6.4 does not check: every frame a client sends is masked (RFC 6455 §5.1; the
// server then closes with 1002). Payloads are counted, never copied.
//
// Made at the hand-over from HTTP, before QWebSocketServer and QWebSocket connect to the socket,
// so its readyRead slot runs before theirs; activate() (once the WebSocket exists) adds a slot
// behind QWebSocket's that notes what QWebSocket left unread, so each byte is looked at once. A
// child of its socket.
class WsFrameGuard : public QObject
{
    Q_OBJECT
public:
    using Violation = std::function<void(const std::string &reason)>;

    explicit WsFrameGuard(QTcpSocket *socket);

    QTcpSocket *socket() const { return m_socket; }

    // From here frames are checked. `violation` runs once, before QWebSocket reads the offending
    // frame (it must close the connection); `afterRead` runs each time QWebSocket has read.
    // Bytes already waiting now were sent before the handshake's answer (RFC 6455 §4.1): a
    // violation.
    void activate(Violation violation, std::function<void()> afterRead);

private:
    void beforeWebSocketRead();
    void afterWebSocketRead();
    // Follows the frames in `bytes`; false on a violation (reported).
    bool feed(const char *bytes, std::int64_t size);
    void fail(const std::string &reason);

    QTcpSocket *m_socket;
    Violation m_violation;
    std::function<void()> m_afterRead;
    bool m_active = false;
    bool m_failed = false;
    std::int64_t m_seenUnread = 0; // bytes at the front of the read buffer already looked at
    std::array<unsigned char, 14> m_header {}; // the current frame's header so far
    std::size_t m_headerBytes = 0;
    std::size_t m_headerSize = 2; // known once its first two bytes are in
    std::uint64_t m_payloadLeft = 0;
};

} // namespace buzz::relay
