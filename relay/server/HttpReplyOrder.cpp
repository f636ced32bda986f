#include "relay/server/HttpReplyOrder.h"

#include <QHttpServerResponder>
#include <QTcpSocket>

namespace buzz::relay {

HttpReplyOrder::HttpReplyOrder(QTcpSocket *socket)
    : QObject(socket)
    , m_socket(socket)
{ }

HttpReplyOrder::~HttpReplyOrder() = default;

HttpReplyOrder *HttpReplyOrder::of(QTcpSocket *socket)
{
    return socket ? socket->findChild<HttpReplyOrder *>(QString(), Qt::FindDirectChildrenOnly)
                  : nullptr;
}

void HttpReplyOrder::deliver(std::uint64_t ticket, std::unique_ptr<QHttpServerResponder> responder,
                             HttpReply reply)
{
    if (m_closed || ticket < m_written)
        return;
    if (!responder) {
        abandon(ticket);
        return;
    }
    m_heldBytes += reply.body.size();
    m_held[ticket] = Held {std::move(responder), std::move(reply)};
    flush();
}

void HttpReplyOrder::abandon(std::uint64_t ticket)
{
    if (m_closed || ticket < m_written)
        return;
    m_held[ticket] = Held {};
    flush();
}

void HttpReplyOrder::closeWith(QByteArray answer, std::function<void()> written)
{
    if (m_closed || m_closing)
        return;
    m_closing = true;
    m_finalAnswer = std::move(answer);
    m_finalWritten = std::move(written);
    flush();
}

void HttpReplyOrder::flush()
{
    while (!m_closed) {
        if (m_socket->state() != QAbstractSocket::ConnectedState) {
            drop(); // the client is gone: nobody to answer
            return;
        }
        const auto next = m_held.find(m_written);
        if (next == m_held.end())
            break;
        Held held = std::move(next->second);
        m_held.erase(next);
        ++m_written;
        if (!held.responder) {
            // An answer that will never come: closing is the only way the client cannot take a
            // later answer for it.
            drop();
            m_socket->disconnectFromHost();
            return;
        }
        m_heldBytes -= held.reply.body.size();
        writeReplyNow(*held.responder, held.reply);
        held = Held {}; // its share of the outbound budget goes as the socket's takes over
        if (m_onWritten)
            m_onWritten();
    }
    if (!m_closed && m_closing && m_written == m_taken) {
        m_closed = true;
        m_socket->write(m_finalAnswer);
        m_finalAnswer.clear();
        if (m_finalWritten)
            std::exchange(m_finalWritten, {})();
    }
}

void HttpReplyOrder::drop()
{
    m_closed = true;
    m_held.clear();
    m_heldBytes = 0;
}

} // namespace buzz::relay
