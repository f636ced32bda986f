#include "RecordingProxy.h"

#include <QTcpSocket>

#include <algorithm>

namespace buzz::test {

struct RecordingProxy::Pipe
{
    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = nullptr;
    QByteArray pending; // client bytes not yet parsed into a full request
    bool tunnel = false; // after a WebSocket upgrade: raw bytes both ways
    bool dropResponse = false;
    bool closed = false;
};

RecordingProxy::RecordingProxy(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &RecordingProxy::onNewConnection);
}

RecordingProxy::~RecordingProxy()
{
    for (Pipe *pipe : m_pipes) {
        if (pipe->client)
            pipe->client->disconnect(this);
        if (pipe->upstream)
            pipe->upstream->disconnect(this);
        delete pipe;
    }
}

bool RecordingProxy::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl RecordingProxy::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port()));
}

void RecordingProxy::injectFault(Fault fault, Predicate predicate)
{
    m_faults.push_back(ArmedFault {fault, std::move(predicate)});
}

RecordingProxy::Predicate RecordingProxy::eventsPost()
{
    return [](const Request &request) {
        return request.method == "POST" && request.path == "/events";
    };
}

RecordingProxy::Predicate RecordingProxy::queryContaining(const QByteArray &needle)
{
    return [needle](const Request &request) {
        return request.path == "/query" && request.body.contains(needle);
    };
}

std::vector<RecordingProxy::Request> RecordingProxy::forwarded(const QByteArray &path) const
{
    std::vector<Request> matching;
    std::copy_if(m_forwarded.begin(), m_forwarded.end(), std::back_inserter(matching),
                 [&](const Request &request) { return request.path == path; });
    return matching;
}

void RecordingProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        auto *pipe = new Pipe;
        pipe->client = client;
        pipe->upstream = new QTcpSocket(this);
        m_pipes.push_back(pipe);
        connect(client, &QTcpSocket::readyRead, this, [this, pipe] { onClientData(pipe); });
        connect(client, &QTcpSocket::disconnected, this, [this, pipe] { closePipe(pipe); });
        connect(pipe->upstream, &QTcpSocket::readyRead, this,
                [this, pipe] { onUpstreamData(pipe); });
        connect(pipe->upstream, &QTcpSocket::disconnected, this, [this, pipe] { closePipe(pipe); });
        pipe->upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
    }
}

void RecordingProxy::closePipe(Pipe *pipe)
{
    if (pipe->closed)
        return;
    pipe->closed = true;
    if (m_held == pipe)
        m_held = nullptr;
    pipe->client->disconnect(this);
    pipe->upstream->disconnect(this);
    pipe->client->abort();
    pipe->upstream->abort();
    pipe->client->deleteLater();
    pipe->upstream->deleteLater();
    m_pipes.erase(std::remove(m_pipes.begin(), m_pipes.end(), pipe), m_pipes.end());
    delete pipe;
}

void RecordingProxy::forward(Pipe *pipe, const QByteArray &raw, const Request &request)
{
    m_forwarded.push_back(request);
    pipe->upstream->write(raw);
}

void RecordingProxy::onClientData(Pipe *pipe)
{
    pipe->pending += pipe->client->readAll();
    if (pipe->tunnel) {
        pipe->upstream->write(pipe->pending);
        pipe->pending.clear();
        return;
    }
    while (!pipe->closed) {
        const qsizetype headerEnd = pipe->pending.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QByteArray head = pipe->pending.left(headerEnd);
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        qsizetype contentLength = 0;
        bool upgrade = false;
        QByteArray authorization;
        for (const QByteArray &line : lines) {
            const QByteArray lower = line.trimmed().toLower();
            if (lower.startsWith("authorization:"))
                authorization = line.trimmed().mid(14).trimmed();
            if (lower.startsWith("content-length:"))
                contentLength = lower.mid(15).trimmed().toLongLong();
            if (lower.startsWith("upgrade:") && lower.contains("websocket"))
                upgrade = true;
        }
        const qsizetype total = headerEnd + 4 + contentLength;
        if (pipe->pending.size() < total)
            return;
        const QByteArray raw = pipe->pending.left(total);
        pipe->pending.remove(0, total);
        Request request {requestLine.value(0), requestLine.value(1), raw.mid(headerEnd + 4),
                         authorization};
        if (!authorization.isEmpty()
            && std::find(m_droppedAuthorizations.begin(), m_droppedAuthorizations.end(),
                         authorization)
                != m_droppedAuthorizations.end()) {
            closePipe(pipe);
            return;
        }
        if (upgrade) {
            pipe->tunnel = true;
            pipe->upstream->write(raw + pipe->pending);
            pipe->pending.clear();
            return;
        }
        auto armed =
            std::find_if(m_faults.begin(), m_faults.end(),
                         [&](const ArmedFault &candidate) { return candidate.predicate(request); });
        if (armed != m_faults.end()) {
            const Fault fault = armed->fault;
            m_faults.erase(armed);
            switch (fault) {
            case Fault::DropRequest:
                m_droppedAuthorizations.push_back(authorization);
                closePipe(pipe);
                return;
            case Fault::DropResponse:
                pipe->dropResponse = true;
                break;
            case Fault::Hold:
                m_held = pipe;
                m_heldRaw = raw;
                m_heldRequest = request;
                emit requestHeld();
                return; // anything pipelined behind it waits too (HTTP/1.1 clients do not pipeline)
            }
        }
        forward(pipe, raw, request);
    }
}

void RecordingProxy::release(bool fakeEmptyArray)
{
    Pipe *pipe = m_held;
    m_held = nullptr;
    if (!pipe || pipe->closed)
        return;
    if (fakeEmptyArray) {
        pipe->client->write(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]");
    } else {
        forward(pipe, m_heldRaw, m_heldRequest);
    }
    if (!pipe->pending.isEmpty())
        onClientData(pipe);
}

void RecordingProxy::onUpstreamData(Pipe *pipe)
{
    const QByteArray data = pipe->upstream->readAll();
    if (pipe->dropResponse) {
        // The relay has answered, so the write is committed; the client never hears about it.
        closePipe(pipe);
        return;
    }
    pipe->client->write(data);
}

} // namespace buzz::test
