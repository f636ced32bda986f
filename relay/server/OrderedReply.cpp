#include "relay/server/OrderedReply.h"

#include "relay/server/HttpReply.h"
#include "relay/server/HttpReplyOrder.h"

#include <QHttpServerResponder>
#include <QTcpSocket>
#include <QThread>

namespace buzz::relay {

OrderedReply::OrderedReply(QHttpServerResponder &&responder)
    : m_responder(std::make_unique<QHttpServerResponder>(std::move(responder)))
    , m_socket(m_responder->socket())
    , m_order(HttpReplyOrder::of(m_responder->socket()))
    , m_thread(QThread::currentThread())
{
    if (m_order)
        m_ticket = m_order->take();
}

OrderedReply::OrderedReply(OrderedReply &&other) noexcept
    : m_responder(std::move(other.m_responder))
    , m_socket(std::move(other.m_socket))
    , m_order(std::move(other.m_order))
    , m_ticket(other.m_ticket)
    , m_thread(other.m_thread)
{ }

OrderedReply &OrderedReply::operator=(OrderedReply &&other) noexcept
{
    if (this != &other) {
        giveUp();
        m_responder = std::move(other.m_responder);
        m_socket = std::move(other.m_socket);
        m_order = std::move(other.m_order);
        m_ticket = other.m_ticket;
        m_thread = other.m_thread;
    }
    return *this;
}

OrderedReply::~OrderedReply()
{
    giveUp();
}

void OrderedReply::giveUp()
{
    if (!m_responder)
        return;
    // QPointer and the order object belong to the network thread; elsewhere (a closure dropped
    // by a closed mailbox at shutdown) the place is left as it is.
    if (QThread::currentThread() == m_thread && m_order)
        m_order->abandon(m_ticket);
    m_responder.reset();
}

QTcpSocket *OrderedReply::socket() const
{
    return m_socket && m_socket->isOpen() ? m_socket.data() : nullptr;
}

void OrderedReply::send(HttpReply reply)
{
    if (!m_responder)
        return;
    std::unique_ptr<QHttpServerResponder> responder = std::move(m_responder);
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return; // the client hung up: nobody to tell
    if (m_order)
        m_order->deliver(m_ticket, std::move(responder), std::move(reply));
    else
        writeReplyNow(*responder, reply);
}

} // namespace buzz::relay
