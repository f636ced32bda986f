#pragma once

#include "relay/server/HttpReply.h"

#include <QByteArray>
#include <QObject>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

class QHttpServerResponder;
class QTcpSocket;

namespace buzz::relay {

// HTTP/1.1 answers of one connection leave in request order (RFC 9112 §9.3.2), whichever is ready
// first: a /query still on the worker pool holds back the /health answer pipelined after it, and a
// proxy that sends several users' requests down one connection never hands one user another's
// answer. Every request takes its place (take()) while QHttpServer hands it to its route, on the
// network thread, in the order the requests arrived; its answer is written when every earlier one
// was. A child of its socket (HttpConnectionGuard makes it), so it goes with it.
class HttpReplyOrder : public QObject
{
    Q_OBJECT
public:
    explicit HttpReplyOrder(QTcpSocket *socket);
    ~HttpReplyOrder() override;

    // The order object of `socket`, or null when the connection has none (then answers are
    // written at once).
    static HttpReplyOrder *of(QTcpSocket *socket);

    // The next request's place.
    std::uint64_t take() { return m_taken++; }
    // Places taken so far (= requests QHttpServer handed to a route).
    std::uint64_t taken() const { return m_taken; }
    // Answers taken and not yet written.
    std::uint64_t owed() const { return m_taken - m_written; }
    // Bytes of answers ready but held behind an earlier one.
    std::size_t heldBytes() const { return m_heldBytes; }
    bool closed() const { return m_closed; }

    // The answer for place `ticket`: written now if every earlier one was, else held.
    void deliver(std::uint64_t ticket, std::unique_ptr<QHttpServerResponder> responder,
                 HttpReply reply);
    // Place `ticket` will never be answered: when its turn comes the connection is closed after
    // the answers before it, so no later answer can be taken for its.
    void abandon(std::uint64_t ticket);
    // Runs after each answer written to the socket.
    void setOnWritten(std::function<void()> onWritten) { m_onWritten = std::move(onWritten); }
    // The connection's last answer (a refusal): written after every place taken so far, then
    // nothing more; `written` runs once it is handed to the socket.
    void closeWith(QByteArray answer, std::function<void()> written);

private:
    struct Held
    {
        std::unique_ptr<QHttpServerResponder> responder; // null: abandoned
        HttpReply reply;
    };
    void flush();
    void drop();

    QTcpSocket *m_socket;
    std::uint64_t m_taken = 0;
    std::uint64_t m_written = 0;
    std::map<std::uint64_t, Held> m_held;
    std::size_t m_heldBytes = 0;
    bool m_closing = false; // closeWith() called
    QByteArray m_finalAnswer;
    std::function<void()> m_finalWritten;
    std::function<void()> m_onWritten;
    bool m_closed = false; // nothing more is written
};

} // namespace buzz::relay
