#include "HostileRelay.h"

#include "net/nostr/EventOrder.h"
#include "net/nostr/Kinds.h"

#include <QTcpSocket>
#include <QWebSocket>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace buzz::test {

namespace {

constexpr qint64 kStreamChunk = 1 << 20;
// A client that never hangs up still ends the test: nothing streams past this (far above the
// clients' caps, far below what would hurt a shared machine).
constexpr qint64 kStreamSafetyStop = qint64(512) << 20;

QByteArray statusText(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    default:
        return "Status";
    }
}

// NIP-01 matching plus the keyset cursors, as relay/store/sqlite/SqliteFilterSql reads them.
bool answers(const nostr::Event &event, const nostr::Filter &filter)
{
    if (!filter.matches(event))
        return false;
    if (filter.beforeId && filter.until && event.createdAt == *filter.until
        && event.id <= *filter.beforeId)
        return false;
    if (filter.afterId && filter.since && event.createdAt == *filter.since
        && event.id <= *filter.afterId)
        return false;
    return true;
}

std::vector<nostr::Filter> parseFilters(const QByteArray &body)
{
    auto list = nostr::Filter::listFromJson(std::string_view(body.constData(), body.size()));
    return list ? std::move(list).value() : std::vector<nostr::Filter> {};
}

} // namespace

struct HostileRelay::HttpClient
{
    QTcpSocket *socket = nullptr;
    QByteArray buffer;
    // An endless or over-long answer in progress.
    bool streaming = false;
    QByteArray unit;
    bool chunked = false;
    qint64 remaining = -1; // bytes still to send of a declared length; -1 = endless
    qint64 sent = 0;
};

struct HostileRelay::WsClient
{
    QWebSocket *socket = nullptr;
    // Open subscriptions: id → the REQ frame as received.
    std::map<QString, QByteArray> subscriptions;
};

HostileRelay::HostileRelay(QObject *parent)
    : QObject(parent)
    , m_webSockets(QStringLiteral("hostile-relay"), QWebSocketServer::NonSecureMode)
    , m_relayKey(nostr::SecretKey::generate())
{
    connect(&m_server, &QTcpServer::newConnection, this, &HostileRelay::onNewConnection);
    connect(&m_webSockets, &QWebSocketServer::newConnection, this, &HostileRelay::onWebSocket);
}

HostileRelay::~HostileRelay()
{
    for (HttpClient *client : m_httpClients) {
        client->socket->disconnect(this);
        delete client;
    }
    for (WsClient *client : m_clients) {
        client->socket->disconnect(this);
        delete client;
    }
}

bool HostileRelay::listen()
{
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        return false;
    m_port = m_server.serverPort();
    return true;
}

QString HostileRelay::httpUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_port);
}

QString HostileRelay::wsUrl() const
{
    return QStringLiteral("ws://127.0.0.1:%1").arg(m_port);
}

void HostileRelay::add(const nostr::Event &event)
{
    m_events.push_back(event);
}

void HostileRelay::addOpenChannel(const QString &channel, const QString &name, qint64 createdAt)
{
    add(m_relayKey.signedEvent(
        nostr::kinds::kGroupMetadata, createdAt,
        {{"d", channel.toStdString()}, {"name", name.toStdString()}, {"public"}, {"open"}}));
}

std::vector<nostr::Event>
HostileRelay::honestAnswer(const std::vector<nostr::Filter> &filters) const
{
    std::vector<nostr::Event> answer;
    std::set<std::string> seen;
    for (const nostr::Filter &filter : filters) {
        std::vector<const nostr::Event *> matching;
        for (const nostr::Event &event : m_events) {
            bool matches = answers(event, filter);
            if (matches && filter.search) {
                const QString content = QString::fromStdString(event.content);
                for (const QString &word : QString::fromStdString(*filter.search)
                                               .split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    matches = matches && content.contains(word, Qt::CaseInsensitive);
            }
            if (matches)
                matching.push_back(&event);
        }
        std::sort(
            matching.begin(), matching.end(),
            [](const nostr::Event *a, const nostr::Event *b) { return nostr::isNewer(*a, *b); });
        const std::size_t limit = filter.limit ? std::size_t(*filter.limit) : std::size_t(500);
        for (std::size_t i = 0; i < matching.size() && i < limit; ++i) {
            if (seen.insert(matching[i]->id).second)
                answer.push_back(*matching[i]);
        }
    }
    return answer;
}

QByteArray HostileRelay::eventsJson(const std::vector<nostr::Event> &events)
{
    QByteArray json = "[";
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i > 0)
            json += ',';
        json += QByteArray::fromStdString(events[i].toJson());
    }
    return json + ']';
}

QList<HostileRelay::Request> HostileRelay::requests(const QByteArray &path) const
{
    QList<Request> matching;
    for (const Request &request : m_requests) {
        if (request.path == path)
            matching.append(request);
    }
    return matching;
}

void HostileRelay::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        auto *client = new HttpClient;
        client->socket = socket;
        m_httpClients.push_back(client);
        connect(socket, &QTcpSocket::readyRead, this, [this, client] { onHttpData(client); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, client] { pumpStream(client); });
        connect(socket, &QTcpSocket::disconnected, this, [this, client] {
            if (client->streaming) {
                ++m_streamsCut;
                emit streamCut(client->sent);
            }
            dropHttpClient(client);
        });
    }
}

void HostileRelay::dropHttpClient(HttpClient *client)
{
    m_httpClients.erase(std::remove(m_httpClients.begin(), m_httpClients.end(), client),
                        m_httpClients.end());
    client->socket->disconnect(this);
    client->socket->deleteLater();
    delete client;
}

void HostileRelay::onHttpData(HttpClient *client)
{
    // Peeked, not read: a WebSocket handshake goes to QWebSocketServer untouched.
    const QByteArray pending = client->socket->peek(client->socket->bytesAvailable());
    const QByteArray all = client->buffer + pending;
    const qsizetype headEnd = all.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return;
    const QList<QByteArray> lines = all.left(headEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    qint64 contentLength = 0;
    bool upgrade = false;
    for (const QByteArray &line : lines.mid(1)) {
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length")
            contentLength = value.toLongLong();
        if (name == "upgrade" && value.toLower() == "websocket")
            upgrade = true;
    }
    if (upgrade && client->buffer.isEmpty()) {
        QTcpSocket *socket = client->socket;
        m_httpClients.erase(std::remove(m_httpClients.begin(), m_httpClients.end(), client),
                            m_httpClients.end());
        socket->disconnect(this);
        delete client;
        m_webSockets.handleConnection(socket);
        return;
    }
    if (all.size() < headEnd + 4 + contentLength)
        return; // the rest of the body is still on its way
    client->buffer += client->socket->read(headEnd + 4 + contentLength - client->buffer.size());
    Request request;
    request.path = requestLine.value(1);
    request.body = client->buffer.mid(headEnd + 4, contentLength);
    client->buffer.remove(0, headEnd + 4 + contentLength);
    if (request.path == "/query" || request.path == "/count")
        request.filters = parseFilters(request.body);
    m_requests.append(request);
    answer(client, request);
    if (!client->streaming && client->socket->bytesAvailable() > 0)
        onHttpData(client); // a pipelined next request
}

void HostileRelay::answer(HttpClient *client, const Request &request)
{
    if (m_httpScript) {
        if (auto scripted = m_httpScript(request)) {
            writeAnswer(client, *scripted);
            return;
        }
    }
    HttpAnswer honest;
    if (request.path == "/query") {
        honest.body = eventsJson(honestAnswer(request.filters));
    } else if (request.path == "/count") {
        honest.body = QByteArray::fromStdString(
            nlohmann::json {{"count", honestAnswer(request.filters).size()}}.dump());
    } else if (request.path == "/events") {
        auto event =
            nostr::Event::fromJson(std::string_view(request.body.constData(), request.body.size()));
        if (!event) {
            honest.status = 400;
            honest.body = R"({"error":"invalid event"})";
        } else {
            add(*event);
            honest.body = QByteArray::fromStdString(nlohmann::json {
                {"event_id", event->id},
                {"accepted", true},
                {"message", ""}}.dump());
        }
    } else {
        honest.status = 404;
        honest.body = R"({"error":"not found"})";
    }
    writeAnswer(client, honest);
}

void HostileRelay::writeAnswer(HttpClient *client, const HttpAnswer &answer)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(answer.status) + ' '
        + statusText(answer.status) + "\r\nContent-Type: " + answer.contentType + "\r\n";
    if (answer.endless) {
        head += "Transfer-Encoding: chunked\r\n\r\n";
        client->streaming = true;
        client->chunked = true;
        client->unit = answer.endlessUnit;
        client->remaining = -1;
        client->socket->write(head);
        if (!answer.body.isEmpty())
            client->socket->write(QByteArray::number(answer.body.size(), 16) + "\r\n" + answer.body
                                  + "\r\n");
        pumpStream(client);
        return;
    }
    if (answer.declaredLength >= 0) {
        head += "Content-Length: " + QByteArray::number(answer.declaredLength) + "\r\n\r\n";
        client->streaming = true;
        client->chunked = false;
        client->unit = answer.endlessUnit;
        client->socket->write(head + answer.body);
        client->remaining = answer.declaredLength - answer.body.size();
        pumpStream(client);
        return;
    }
    head += "Content-Length: " + QByteArray::number(answer.body.size()) + "\r\n\r\n";
    client->socket->write(head + answer.body);
}

void HostileRelay::pumpStream(HttpClient *client)
{
    if (!client->streaming || client->unit.isEmpty())
        return;
    // Keep a few chunks queued, no more: the stream only grows as fast as the client reads.
    while (client->socket->bytesToWrite() < 4 * kStreamChunk && client->remaining != 0) {
        if (client->sent >= kStreamSafetyStop) {
            client->socket->abort();
            return;
        }
        QByteArray chunk;
        while (chunk.size() < kStreamChunk)
            chunk += client->unit;
        if (client->remaining > 0 && chunk.size() > client->remaining)
            chunk.truncate(client->remaining);
        if (client->remaining > 0)
            client->remaining -= chunk.size();
        client->sent += chunk.size();
        m_streamedBytes += chunk.size();
        if (client->chunked)
            chunk = QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
        client->socket->write(chunk);
    }
}

void HostileRelay::onWebSocket()
{
    while (QWebSocket *socket = m_webSockets.nextPendingConnection()) {
        auto *client = new WsClient;
        client->socket = socket;
        m_clients.push_back(client);
        connect(socket, &QWebSocket::textMessageReceived, this,
                [this, client](const QString &text) { onWsMessage(client, text); });
        connect(socket, &QWebSocket::disconnected, this, [this, client] {
            m_clients.erase(std::remove(m_clients.begin(), m_clients.end(), client),
                            m_clients.end());
            client->socket->disconnect(this);
            client->socket->deleteLater();
            delete client;
        });
        socket->sendTextMessage(QStringLiteral("[\"AUTH\",\"hostile-challenge\"]"));
    }
}

void HostileRelay::onWsMessage(WsClient *client, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    const nlohmann::json message =
        nlohmann::json::parse(utf8.constBegin(), utf8.constEnd(), nullptr, false);
    if (!message.is_array() || message.empty() || !message[0].is_string())
        return;
    const std::string type = message[0].get<std::string>();
    auto send = [client](const nlohmann::json &frame) {
        client->socket->sendTextMessage(QString::fromStdString(frame.dump()));
    };
    if (type == "AUTH" && message.size() >= 2 && message[1].is_object()) {
        send(nlohmann::json::array({"OK", message[1].value("id", ""), true, ""}));
    } else if (type == "REQ" && message.size() >= 2 && message[1].is_string()) {
        const QString id = QString::fromStdString(message[1].get<std::string>());
        std::vector<nostr::Filter> filters;
        for (std::size_t i = 2; i < message.size(); ++i) {
            if (auto filter = nostr::Filter::fromJson(message[i]))
                filters.push_back(std::move(filter).value());
        }
        client->subscriptions[id] = utf8;
        std::optional<std::vector<QByteArray>> frames;
        if (m_reqScript)
            frames = m_reqScript(id, filters);
        if (frames) {
            for (const QByteArray &frame : *frames)
                client->socket->sendTextMessage(QString::fromUtf8(frame));
        } else {
            for (const nostr::Event &event : honestAnswer(filters))
                send(nlohmann::json::array({"EVENT", id.toStdString(), event.toJsonValue()}));
            send(nlohmann::json::array({"EOSE", id.toStdString()}));
        }
        emit subscribed(id);
    } else if (type == "CLOSE" && message.size() >= 2 && message[1].is_string()) {
        client->subscriptions.erase(QString::fromStdString(message[1].get<std::string>()));
    } else if (type == "EVENT" && message.size() >= 2) {
        if (auto event = nostr::Event::fromJson(message[1])) {
            add(*event);
            send(nlohmann::json::array({"OK", event->id, true, ""}));
        }
    }
}

int HostileRelay::sendEventOn(const QByteArray &needle, const QByteArray &eventJson)
{
    int sent = 0;
    for (WsClient *client : m_clients) {
        for (const auto &[id, req] : client->subscriptions) {
            if (!needle.isEmpty() && !req.contains(needle))
                continue;
            client->socket->sendTextMessage(QStringLiteral("[\"EVENT\",\"%1\",").arg(id)
                                            + QString::fromUtf8(eventJson) + QLatin1Char(']'));
            ++sent;
        }
    }
    return sent;
}

void HostileRelay::sendText(const QString &message)
{
    for (WsClient *client : m_clients)
        client->socket->sendTextMessage(message);
}

int HostileRelay::openSubscriptions(const QByteArray &needle) const
{
    int open = 0;
    for (const WsClient *client : m_clients) {
        for (const auto &[id, req] : client->subscriptions)
            open += needle.isEmpty() || req.contains(needle) ? 1 : 0;
    }
    return open;
}

nostr::Event Forge::forgedSignature(nostr::Event event, const std::string &author)
{
    event.pubkey = author;
    event.id = event.computeId(); // a consistent id: only the signature gives it away
    event.sig = std::string(128, 'f');
    return event;
}

nostr::Event Forge::alteredContent(nostr::Event event, const std::string &content)
{
    event.content = content;
    return event;
}

} // namespace buzz::test
