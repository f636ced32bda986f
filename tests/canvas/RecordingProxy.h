#pragma once

// A tiny HTTP/1.1 proxy between a client under test and the in-process relay. It records every
// request the relay receives (method, path, body) and can inject one fault at a chosen request:
// drop the request before the relay sees it, drop the response after the relay answered (the
// write committed, the client never hears), hold the request until released, or answer a held
// /query with an empty array itself (a stale read). WebSocket upgrades are tunnelled untouched.

#include <QByteArray>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

#include <functional>
#include <vector>

class QTcpSocket;

namespace buzz::test {

class RecordingProxy : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QByteArray body;
        QByteArray authorization; // the NIP-98 header: Qt's own re-sends repeat it byte for byte
    };

    // DropRequest drops the matching request and every later copy of it with the same
    // Authorization header — i.e. the re-sends Qt makes by itself — but not a new request.
    enum class Fault { DropRequest, DropResponse, Hold };
    using Predicate = std::function<bool(const Request &)>;

    explicit RecordingProxy(QObject *parent = nullptr);
    ~RecordingProxy() override;

    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    QUrl url() const; // http://127.0.0.1:<port>
    void setUpstreamPort(quint16 port) { m_upstreamPort = port; }

    // Arms a one-shot fault for the first request matching `predicate`. Several faults may be
    // armed; each request fires at most the first armed fault that matches it.
    void injectFault(Fault fault, Predicate predicate);
    bool isHolding() const { return m_held != nullptr; }
    // Releases a held request: forward it, or (fakeEmptyArray) answer 200 [] without forwarding.
    void release(bool fakeEmptyArray = false);

    // Requests that reached the relay (dropped-before-relay requests are not in here).
    const std::vector<Request> &forwarded() const { return m_forwarded; }
    std::vector<Request> forwarded(const QByteArray &path) const;
    void clear() { m_forwarded.clear(); }

    static Predicate eventsPost();
    static Predicate queryContaining(const QByteArray &needle);

signals:
    void requestHeld();

private:
    struct Pipe;
    void onNewConnection();
    void onClientData(Pipe *pipe);
    void onUpstreamData(Pipe *pipe);
    void closePipe(Pipe *pipe);
    void forward(Pipe *pipe, const QByteArray &raw, const Request &request);

    QTcpServer m_server;
    quint16 m_upstreamPort = 0;
    std::vector<Pipe *> m_pipes;
    std::vector<Request> m_forwarded;
    struct ArmedFault
    {
        Fault fault;
        Predicate predicate;
    };
    std::vector<ArmedFault> m_faults;
    std::vector<QByteArray> m_droppedAuthorizations;
    Pipe *m_held = nullptr;
    QByteArray m_heldRaw;
    Request m_heldRequest;
};

} // namespace buzz::test
