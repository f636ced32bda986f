#include "RecordingProxy.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTcpSocket>

#include <algorithm>

namespace buzz::test {

struct RecordingProxy::Pipe
{
    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = nullptr;
    QByteArray pending; // client bytes not yet parsed into a full request
    bool tunnel = false; // after a WebSocket upgrade: frames both ways
    bool dropResponse = false;
    QByteArray replaceResponse; // status line that replaces the relay's answer ("504 …")
    bool closed = false;

    // WebSocket tunnel: the relay's 101 answer passes as is, then whole frames are forwarded, so
    // injected frames land between messages, never inside a fragmented one.
    bool upgradeAnswered = false;
    bool rawTunnel = false; // the upgrade was refused: bytes pass untouched
    QByteArray relayHandshake;
    WsFrameReader fromClient;
    WsFrameReader fromRelay;
    bool clientMidMessage = false;
    bool relayMidMessage = false;
    QHash<QByteArray, QByteArray> subscriptions; // open subscription id → its REQ text
    QSet<QByteArray> closedByProxy; // relay frames for these ids are dropped until a new REQ
    QByteArray injectToClient;
    QByteArray injectToRelay;
};

namespace {

// ["TYPE", "<id>", …] → ("TYPE", "<id>") for a Nostr message, empty strings otherwise.
std::pair<QString, QByteArray> messageTypeAndId(const QByteArray &payload)
{
    const QJsonArray message = QJsonDocument::fromJson(payload).array();
    return {message.at(0).toString(), message.at(1).toString().toUtf8()};
}

QByteArray compact(const QJsonArray &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

} // namespace

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
    if (!m_server.listen(QHostAddress::LocalHost, m_port))
        return false;
    m_port = m_server.serverPort();
    return true;
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
    if (pipe->client) {
        pipe->client->disconnect(this);
        pipe->client->abort();
        pipe->client->deleteLater();
    }
    pipe->upstream->disconnect(this);
    // What the client sent before it went is passed on, as a proxy does (its last frame can be
    // an "offline" presence); only then is the relay's side cut.
    pipe->upstream->flush();
    pipe->upstream->abort();
    pipe->upstream->deleteLater();
    m_pipes.erase(std::remove(m_pipes.begin(), m_pipes.end(), pipe), m_pipes.end());
    delete pipe;
}

void RecordingProxy::forward(Pipe *pipe, const QByteArray &raw, const Request &request)
{
    m_forwarded.push_back(request);
    pipe->upstream->write(raw);
}

void RecordingProxy::answerAndClose(Pipe *pipe, const QByteArray &status, const QByteArray &body)
{
    QTcpSocket *client = pipe->client;
    client->write("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: "
                  + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    // The answer is still being written: close gracefully, not with closePipe's abort.
    pipe->client = nullptr;
    client->disconnect(this);
    connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    client->disconnectFromHost();
    closePipe(pipe);
}

void RecordingProxy::onClientData(Pipe *pipe)
{
    if (m_frozen)
        return; // the bytes wait in the socket, as in a stopped process's receive buffer
    if (pipe->tunnel) {
        tunnelFromClient(pipe, pipe->client->readAll());
        return;
    }
    pipe->pending += pipe->client->readAll();
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
            pipe->upstream->write(raw);
            const QByteArray frames = std::exchange(pipe->pending, {});
            if (!frames.isEmpty())
                tunnelFromClient(pipe, frames);
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
            case Fault::BadGateway:
                answerAndClose(pipe, "502 Bad Gateway", "Bad Gateway\n");
                return;
            case Fault::GatewayTimeout:
                pipe->replaceResponse = "504 Gateway Timeout";
                break;
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
    if (m_frozen)
        return;
    const QByteArray data = pipe->upstream->readAll();
    if (pipe->tunnel) {
        tunnelFromRelay(pipe, data);
        return;
    }
    if (pipe->dropResponse) {
        // The relay has answered, so the write is committed; the client never hears about it.
        closePipe(pipe);
        return;
    }
    if (!pipe->replaceResponse.isEmpty()) {
        // Envoy's words for a relay that did not answer in time; the write is committed.
        answerAndClose(pipe, pipe->replaceResponse, "upstream request timeout\n");
        return;
    }
    pipe->client->write(data);
}

void RecordingProxy::tunnelFromClient(Pipe *pipe, const QByteArray &bytes)
{
    if (pipe->rawTunnel) {
        pipe->upstream->write(bytes);
        return;
    }
    pipe->fromClient.append(bytes);
    bool opened = false;
    while (auto frame = pipe->fromClient.next()) {
        if (frame->opcode == 1 && frame->fin) {
            const auto [type, id] = messageTypeAndId(frame->payload);
            if (type == QLatin1String("REQ")) {
                pipe->subscriptions.insert(id, frame->payload);
                pipe->closedByProxy.remove(id);
                opened = true;
            } else if (type == QLatin1String("CLOSE")) {
                pipe->subscriptions.remove(id);
            }
        }
        if (frame->opcode < 8) // control frames may sit inside a fragmented message
            pipe->clientMidMessage = !frame->fin;
        pipe->upstream->write(frame->raw);
    }
    flushInjected(pipe);
    if (opened)
        emit subscriptionOpened();
}

void RecordingProxy::tunnelFromRelay(Pipe *pipe, const QByteArray &bytes)
{
    if (pipe->rawTunnel) {
        pipe->client->write(bytes);
        return;
    }
    QByteArray data = bytes;
    if (!pipe->upgradeAnswered) {
        pipe->relayHandshake += data;
        const qsizetype end = pipe->relayHandshake.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray answer = pipe->relayHandshake.left(end + 4);
        data = pipe->relayHandshake.mid(end + 4);
        pipe->relayHandshake.clear();
        pipe->upgradeAnswered = true;
        pipe->rawTunnel = !answer.startsWith("HTTP/1.1 101");
        pipe->client->write(answer);
        if (pipe->rawTunnel) {
            pipe->client->write(data);
            return;
        }
    }
    pipe->fromRelay.append(data);
    while (auto frame = pipe->fromRelay.next()) {
        bool drop = false;
        if (frame->opcode == 1 && frame->fin && !pipe->closedByProxy.isEmpty())
            drop = pipe->closedByProxy.contains(messageTypeAndId(frame->payload).second);
        if (frame->opcode < 8)
            pipe->relayMidMessage = !frame->fin;
        if (!drop)
            pipe->client->write(frame->raw);
    }
    flushInjected(pipe);
}

void RecordingProxy::flushInjected(Pipe *pipe)
{
    if (!pipe->clientMidMessage && !pipe->injectToRelay.isEmpty())
        pipe->upstream->write(std::exchange(pipe->injectToRelay, {}));
    if (!pipe->relayMidMessage && pipe->upgradeAnswered && !pipe->injectToClient.isEmpty())
        pipe->client->write(std::exchange(pipe->injectToClient, {}));
}

int RecordingProxy::closeSubscriptions(const QByteArray &needle, const QString &reason)
{
    int closed = 0;
    for (Pipe *pipe : m_pipes) {
        if (!pipe->tunnel || pipe->closed || pipe->rawTunnel)
            continue;
        for (auto it = pipe->subscriptions.begin(); it != pipe->subscriptions.end();) {
            if (!it.value().contains(needle)) {
                ++it;
                continue;
            }
            const QString id = QString::fromUtf8(it.key());
            pipe->closedByProxy.insert(it.key());
            pipe->injectToClient += WsFrameReader::textFrame(
                compact(QJsonArray {QStringLiteral("CLOSED"), id, reason}), false);
            pipe->injectToRelay +=
                WsFrameReader::textFrame(compact(QJsonArray {QStringLiteral("CLOSE"), id}), true);
            it = pipe->subscriptions.erase(it);
            ++closed;
        }
        flushInjected(pipe);
    }
    return closed;
}

void RecordingProxy::sendToClients(const QByteArray &message)
{
    for (Pipe *pipe : m_pipes) {
        if (!pipe->tunnel || pipe->closed || pipe->rawTunnel)
            continue;
        pipe->injectToClient += WsFrameReader::textFrame(message, false);
        flushInjected(pipe);
    }
}

int RecordingProxy::openSubscriptions(const QByteArray &needle) const
{
    int open = 0;
    for (const Pipe *pipe : m_pipes) {
        if (pipe->closed)
            continue;
        for (const QByteArray &request : pipe->subscriptions)
            open += request.contains(needle) ? 1 : 0;
    }
    return open;
}

void RecordingProxy::setFrozen(bool frozen)
{
    m_frozen = frozen;
    if (frozen)
        return;
    // Deliver what waited; a copy, since forwarding may close pipes.
    const std::vector<Pipe *> pipes = m_pipes;
    for (Pipe *pipe : pipes) {
        if (std::find(m_pipes.begin(), m_pipes.end(), pipe) == m_pipes.end())
            continue;
        if (pipe->client && pipe->client->bytesAvailable() > 0)
            onClientData(pipe);
        if (std::find(m_pipes.begin(), m_pipes.end(), pipe) != m_pipes.end()
            && pipe->upstream->bytesAvailable() > 0)
            onUpstreamData(pipe);
    }
}

void RecordingProxy::setRefusing(bool refusing)
{
    if (refusing)
        m_server.close();
    else if (!m_server.isListening())
        m_server.listen(QHostAddress::LocalHost, m_port);
}

void RecordingProxy::dropConnections()
{
    const std::vector<Pipe *> pipes = m_pipes;
    for (Pipe *pipe : pipes)
        closePipe(pipe);
}

} // namespace buzz::test
