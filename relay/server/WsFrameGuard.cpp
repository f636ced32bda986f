#include "relay/server/WsFrameGuard.h"

#include <QTcpSocket>

#include <algorithm>

namespace buzz::relay {

WsFrameGuard::WsFrameGuard(QTcpSocket *socket)
    : QObject(socket)
    , m_socket(socket)
{
    connect(m_socket, &QTcpSocket::readyRead, this, &WsFrameGuard::beforeWebSocketRead);
}

void WsFrameGuard::activate(Violation violation, std::function<void()> afterRead)
{
    if (m_active)
        return;
    m_active = true;
    m_violation = std::move(violation);
    m_afterRead = std::move(afterRead);
    connect(m_socket, &QTcpSocket::readyRead, this, &WsFrameGuard::afterWebSocketRead);
    if (m_socket->bytesAvailable() > 0)
        fail("data before the handshake completed");
}

void WsFrameGuard::beforeWebSocketRead()
{
    if (!m_active || m_failed)
        return;
    const std::int64_t available = m_socket->bytesAvailable();
    const std::int64_t fresh = available - std::min(m_seenUnread, available);
    m_seenUnread = std::max<std::int64_t>(0, available);
    if (fresh <= 0)
        return;
    const QByteArray bytes = m_socket->peek(available);
    feed(bytes.constData() + (available - fresh), fresh);
}

void WsFrameGuard::afterWebSocketRead()
{
    // QWebSocket reads whole header pieces and payloads; what it left was looked at already.
    m_seenUnread = std::min(m_seenUnread, std::max<std::int64_t>(0, m_socket->bytesAvailable()));
    if (m_afterRead && !m_failed)
        m_afterRead();
}

bool WsFrameGuard::feed(const char *bytes, std::int64_t size)
{
    std::int64_t at = 0;
    while (at < size) {
        if (m_payloadLeft > 0) {
            const auto skip = std::min<std::uint64_t>(m_payloadLeft, std::uint64_t(size - at));
            m_payloadLeft -= skip;
            at += std::int64_t(skip);
            continue;
        }
        m_header[m_headerBytes++] = static_cast<unsigned char>(bytes[at++]);
        if (m_headerBytes == 2) {
            if ((m_header[1] & 0x80) == 0) {
                fail("client frames must be masked");
                return false;
            }
            const unsigned length = m_header[1] & 0x7F;
            m_headerSize = 2 + (length == 126 ? 2 : length == 127 ? 8 : 0) + 4;
        }
        if (m_headerBytes < 2 || m_headerBytes < m_headerSize)
            continue;
        std::uint64_t length = m_header[1] & 0x7F;
        if (length >= 126) {
            const std::size_t lengthBytes = length == 126 ? 2 : 8;
            length = 0;
            for (std::size_t i = 0; i < lengthBytes; ++i)
                length = (length << 8) | m_header[2 + i];
        }
        m_payloadLeft = length;
        m_headerBytes = 0;
        m_headerSize = 2;
    }
    return true;
}

void WsFrameGuard::fail(const std::string &reason)
{
    if (m_failed)
        return;
    m_failed = true;
    if (m_violation)
        m_violation(reason);
}

} // namespace buzz::relay
