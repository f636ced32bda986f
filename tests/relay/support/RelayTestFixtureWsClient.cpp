#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

namespace buzz::relay::test {

WsTestClient::WsTestClient(QUrl url, QObject *parent)
    : QObject(parent)
    , m_url(std::move(url))
{
    // The relay's frames can be large (history pages); the client accepts what the relay sends.
    connect(&m_socket, &QWebSocket::textMessageReceived, this, &WsTestClient::onText);
    connect(&m_socket, &QWebSocket::disconnected, this, &WsTestClient::frameReceived);
}

WsTestClient::~WsTestClient()
{
    m_socket.abort();
}

void WsTestClient::onText(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    auto frame = nlohmann::json::parse(utf8.constBegin(), utf8.constEnd(), nullptr, false);
    if (frame.is_array() && frame.size() == 2 && frame[0] == "AUTH" && frame[1].is_string())
        m_challenge = frame[1].get<std::string>();
    m_inbox.push_back(std::move(frame));
    emit frameReceived();
}

bool WsTestClient::waitSignal(int timeoutMs)
{
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &WsTestClient::frameReceived, &loop, &QEventLoop::quit);
    connect(&m_socket, &QWebSocket::connected, &loop, &QEventLoop::quit);
    timer.start(std::max(timeoutMs, 1));
    loop.exec();
    return timer.isActive();
}

bool WsTestClient::connectAndWaitChallenge(int timeoutMs)
{
    m_socket.open(m_url);
    const auto frame = waitForType("AUTH", timeoutMs);
    return !frame.is_null();
}

nlohmann::json WsTestClient::authenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                          std::int64_t now, int timeoutMs)
{
    const auto auth = nostr::nip42::buildAuthEvent(key, relayUrl, m_challenge, now);
    send("[\"AUTH\"," + auth.toJson() + "]");
    return waitForOk(auth.id, timeoutMs);
}

bool WsTestClient::connectAndAuthenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                          std::int64_t now, int timeoutMs)
{
    if (!connectAndWaitChallenge(timeoutMs))
        return false;
    const auto ok = authenticate(key, relayUrl, now, timeoutMs);
    return ok.is_array() && ok.size() >= 3 && ok[2] == true;
}

void WsTestClient::send(const std::string &frame)
{
    m_socket.sendTextMessage(QString::fromStdString(frame));
}

void WsTestClient::sendEvent(const nostr::Event &event)
{
    send("[\"EVENT\"," + event.toJson() + "]");
}

void WsTestClient::sendReq(const std::string &subscriptionId,
                           const std::vector<std::string> &filtersJson)
{
    std::string frame = "[\"REQ\"," + nlohmann::json(subscriptionId).dump();
    for (const auto &filter : filtersJson)
        frame += "," + filter;
    frame += "]";
    send(frame);
}

nlohmann::json WsTestClient::waitFor(const std::function<bool(const nlohmann::json &)> &match,
                                     int timeoutMs)
{
    QElapsedTimer elapsed;
    elapsed.start();
    for (;;) {
        for (auto it = m_inbox.begin(); it != m_inbox.end(); ++it) {
            if (match(*it)) {
                nlohmann::json frame = std::move(*it);
                m_inbox.erase(it);
                return frame;
            }
        }
        const qint64 remaining = timeoutMs - elapsed.elapsed();
        if (remaining <= 0 || !waitSignal(int(remaining)))
            return nullptr;
    }
}

nlohmann::json WsTestClient::waitForType(const std::string &type, int timeoutMs)
{
    return waitFor(
        [&](const nlohmann::json &f) { return f.is_array() && !f.empty() && f[0] == type; },
        timeoutMs);
}

nlohmann::json WsTestClient::waitForOk(const std::string &eventId, int timeoutMs)
{
    return waitFor(
        [&](const nlohmann::json &f) {
            return f.is_array() && f.size() >= 4 && f[0] == "OK" && f[1] == eventId;
        },
        timeoutMs);
}

nlohmann::json WsTestClient::waitForClosed(const std::string &subscriptionId, int timeoutMs)
{
    return waitFor(
        [&](const nlohmann::json &f) {
            return f.is_array() && f.size() >= 3 && f[0] == "CLOSED" && f[1] == subscriptionId;
        },
        timeoutMs);
}

std::optional<std::vector<nlohmann::json>>
WsTestClient::eventsUntilEose(const std::string &subscriptionId, int timeoutMs)
{
    std::vector<nlohmann::json> events;
    for (;;) {
        auto frame = waitFor(
            [&](const nlohmann::json &f) {
                return f.is_array() && f.size() >= 2
                    && (f[0] == "EVENT" || f[0] == "EOSE" || f[0] == "CLOSED")
                    && f[1] == subscriptionId;
            },
            timeoutMs);
        if (frame.is_null() || frame[0] == "CLOSED")
            return std::nullopt;
        if (frame[0] == "EOSE")
            return events;
        events.push_back(frame[2]);
    }
}

nlohmann::json WsTestClient::publish(const nostr::Event &event, int timeoutMs)
{
    sendEvent(event);
    return waitForOk(event.id, timeoutMs);
}

bool WsTestClient::waitDisconnected(int timeoutMs)
{
    QElapsedTimer elapsed;
    elapsed.start();
    while (m_socket.state() != QAbstractSocket::UnconnectedState) {
        const qint64 remaining = timeoutMs - elapsed.elapsed();
        if (remaining <= 0)
            return false;
        waitSignal(int(remaining));
    }
    return true;
}

bool WsTestClient::receivesNothingWithin(int ms)
{
    const std::size_t before = m_inbox.size();
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    return m_inbox.size() == before;
}

} // namespace buzz::relay::test
