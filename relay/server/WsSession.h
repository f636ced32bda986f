#pragma once

#include "relay/RelayEngine.h"
#include "relay/auth/Nip42Handshake.h"
#include "relay/server/OutboundQueue.h"
#include "relay/server/ServerContext.h"
#include "relay/server/Subscription.h"
#include "relay/server/WsProtocol.h"

#include <QObject>
#include <QTimer>
#include <QWebSocket>

#include <memory>
#include <string>
#include <unordered_map>

namespace buzz::relay {

class WsFrameGuard;

// One WebSocket connection: NIP-42 first, then EVENT/REQ/COUNT/CLOSE per docs/buzz-protocol.md
// §Frames. Lives on the network thread; engine calls go through ServerContext::runOffThread.
class WsSession : public QObject
{
    Q_OBJECT
public:
    // `authRelayUrl` is what the NIP-42 `relay` tag must name: ws/wss (from the configured relay
    // URL) and the tenant host this connection was addressed to (docs/buzz-protocol.md
    // §Communities). `frames` checks the client's frames on the raw socket (null: unchecked).
    WsSession(std::unique_ptr<QWebSocket> socket, WsFrameGuard *frames, std::string community,
              std::string authRelayUrl, const ServerContext &context, QObject *parent = nullptr);
    ~WsSession() override;

    const std::string &community() const { return m_community; }
    bool isAuthenticated() const { return m_handshake.isAuthenticated(); }
    const std::string &pubkey() const { return m_handshake.pubkey(); }
    std::size_t subscriptionCount() const { return m_subscriptions.size(); }

    // Would any live subscription take this committed event (before the per-recipient read check)?
    bool wantsLive(const StoredEvent &stored) const;
    // The recipient may read the event's channel: deliver to every subscription that accepts it.
    void deliverLive(const std::shared_ptr<const StoredEvent> &stored);

    // Live subscriptions pinned to `channel` (lower-case) and not yet closed.
    bool subscribesTo(const std::string &channel) const;
    // The peer lost read access to `channel`: each subscription pinned to it is closed with
    // CLOSED "restricted: channel access revoked" (docs/buzz-protocol.md §Subscriptions).
    void revokeChannel(const std::string &channel);

    void closeSocket();

    // Bytes sent and not yet read by the peer, as last counted against the relay-wide bound.
    std::int64_t waitingBytes() const { return m_accounted; }
    // Cut for the relay-wide outbound bound (relay/README.md "Limits").
    void dropForRelayOutbound();

signals:
    void finished(WsSession *session);

private:
    void onTextMessage(const QString &message);
    void onBinaryMessage(const QByteArray &message);
    void handleFrame(std::string_view text);
    void handleAuth(ws::AuthMessage message);
    void handleEvent(ws::EventMessage message);
    void handleReq(ws::ReqMessage message);
    void handleCount(ws::CountMessage message);
    void handleClose(const ws::CloseMessage &message);
    void finishHistory(const std::shared_ptr<Subscription> &subscription, AdmissionResult refusal,
                       QueryResult history);
    RequestContext requestContext() const;
    void send(const std::string &frame);
    void sendEvent(const Subscription &subscription, const StoredEvent &stored);
    // Live fan-out goes through the bounded send queue; false when the frame was not sent.
    bool sendLiveEvent(const Subscription &subscription, const StoredEvent &stored);
    void onPingDue();
    void dropSlowConsumer();
    // After QWebSocket read from the socket: the outbound bound, pongs included.
    void checkOutbound();
    // Brings this socket's share of the relay-wide budget up to date; `relieve`: cut the
    // slowest consumers when that passes the limit.
    void account(bool relieve);
    void releaseAccount();
    // RFC 6455 §7.4.1: 1002, nothing more read or answered.
    void failProtocol(const std::string &reason);

    std::unique_ptr<QWebSocket> m_socket;
    std::string m_community;
    std::string m_authRelayUrl;
    const ServerContext &m_context;
    Nip42Handshake m_handshake;
    std::unordered_map<std::string, std::shared_ptr<Subscription>> m_subscriptions;
    std::uint64_t m_nextGeneration = 1;
    bool m_finished = false;
    bool m_closing = false; // failed: a close frame is on its way, nothing else
    QTimer m_pingTimer;
    OutboundQueue m_outbound;
    int m_unansweredPings = 0;
    std::int64_t m_accounted = 0; // bytesToWrite() as last charged to the budget
    std::int64_t m_peakWaiting = 0;
};

} // namespace buzz::relay
