#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"

#include <QObject>
#include <QUrl>
#include <QWebSocket>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::test {

// WebSocket client for tests: collects every frame into an inbox; waits take the first frame that
// matches (leaving the others), driven by the event loop (no sleeps).
class WsTestClient : public QObject
{
    Q_OBJECT
public:
    explicit WsTestClient(QUrl url, QObject *parent = nullptr);
    ~WsTestClient() override;

    // Opens the socket and waits for ["AUTH", challenge].
    bool connectAndWaitChallenge(int timeoutMs = 5000);
    // Connects, answers the challenge with a kind-22242 event, and waits for OK true.
    bool connectAndAuthenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                std::int64_t now, int timeoutMs = 5000);
    // Sends AUTH for the current challenge; returns the OK frame (null on timeout).
    nlohmann::json authenticate(const nostr::SecretKey &key, const std::string &relayUrl,
                                std::int64_t now, int timeoutMs = 5000);

    const std::string &challenge() const { return m_challenge; }
    bool isConnected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    QWebSocket &socket() { return m_socket; }

    void send(const std::string &frame);
    void sendEvent(const nostr::Event &event);
    void sendReq(const std::string &subscriptionId, const std::vector<std::string> &filtersJson);

    // First inbox frame for which `match` holds (removed from the inbox), or null after the
    // timeout.
    nlohmann::json waitFor(const std::function<bool(const nlohmann::json &)> &match,
                           int timeoutMs = 5000);
    nlohmann::json waitForType(const std::string &type, int timeoutMs = 5000);
    nlohmann::json waitForOk(const std::string &eventId, int timeoutMs = 5000);
    nlohmann::json waitForClosed(const std::string &subscriptionId, int timeoutMs = 5000);
    // EVENT frames for `subscriptionId` up to its EOSE (nullopt when EOSE never came).
    std::optional<std::vector<nlohmann::json>> eventsUntilEose(const std::string &subscriptionId,
                                                               int timeoutMs = 5000);
    // Sends the event and waits for its OK; returns the OK frame.
    nlohmann::json publish(const nostr::Event &event, int timeoutMs = 5000);

    bool waitDisconnected(int timeoutMs = 5000);
    QWebSocketProtocol::CloseCode closeCode() const { return m_socket.closeCode(); }
    std::size_t inboxSize() const { return m_inbox.size(); }
    // Processes pending events for `ms` and reports whether any frame arrived (for "nothing more
    // is sent" checks, where there is no signal to wait for).
    bool receivesNothingWithin(int ms);

signals:
    void frameReceived();

private:
    void onText(const QString &text);
    bool waitSignal(int timeoutMs);

    QUrl m_url;
    QWebSocket m_socket;
    std::deque<nlohmann::json> m_inbox;
    std::string m_challenge;
};

} // namespace buzz::relay::test
