#pragma once

#include <QPointer>

#include <cstdint>
#include <memory>

class QHttpServerResponder;
class QTcpSocket;
class QThread;

namespace buzz::relay {

class HttpReplyOrder;
struct HttpReply;

// One request's answer, in its connection's order (HttpReplyOrder): made from the responder while
// the route handles the request (on the network thread, before the route returns), sent whenever
// the answer is ready. One never sent closes the connection when its turn comes. Move-only; lives
// and dies on the network thread (one destroyed elsewhere gives up its place without a word).
class OrderedReply
{
public:
    explicit OrderedReply(QHttpServerResponder &&responder);
    OrderedReply(OrderedReply &&other) noexcept;
    OrderedReply &operator=(OrderedReply &&other) noexcept;
    OrderedReply(const OrderedReply &) = delete;
    OrderedReply &operator=(const OrderedReply &) = delete;
    ~OrderedReply();

    // Writes the answer, now or once every earlier answer on the connection was written; nothing
    // when the client went away. At most once.
    void send(HttpReply reply);
    // The connection, while it is open.
    QTcpSocket *socket() const;

private:
    void giveUp();

    std::unique_ptr<QHttpServerResponder> m_responder;
    QPointer<QTcpSocket> m_socket;
    QPointer<HttpReplyOrder> m_order;
    std::uint64_t m_ticket = 0;
    QThread *m_thread = nullptr;
};

} // namespace buzz::relay
