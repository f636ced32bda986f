#pragma once

#include "relay/RelayEngine.h"
#include "relay/auth/CommunityResolver.h"
#include "relay/auth/HttpAuthenticator.h"
#include "relay/auth/RelayMembership.h"
#include "relay/model/OutboundBudget.h"
#include "relay/server/HttpRequestGuard.h"
#include "relay/server/JobQueue.h"
#include "relay/server/OutboundQueue.h"
#include "relay/server/ServerContext.h"
#include "relay/server/ServerMetrics.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

class QHttpServerRequest;
class QHttpServerResponder;
class QTcpSocket;
class QWebSocket;
class QWebSocketServer;

namespace buzz::relay {

class GuardedTcpServer;
class HttpBridge;
class WsFrameGuard;
class WsSession;

// The relay's network side: one port serving the HTTP bridge, NIP-11, /health, /metrics and
// WebSocket upgrades (docs/buzz-protocol.md §HTTP bridge, §WebSocket, §NIP-11). Embeddable: the
// desktop app constructs a RelayEngine and a RelayServer in-process, calls start() and connects to
// url().
class RelayServer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::string relayUrl; // what NIP-42 `relay` / NIP-98 `u` must name; empty = ws://<listen
                              // host>:<bound port>
        std::vector<std::pair<std::string, std::string>>
            communities; // Host → community; loopback → "local" is added
        bool acceptDevPubkeyHeader = false;
        // NIP-43 gate on WS AUTH and the HTTP bridge; the relay's own key is always a member.
        bool requireRelayMembership = false;
        std::vector<std::string> relayMembers; // 64-hex pubkeys
        std::string adminToken; // bearer token of /admin/* (fault injection); empty = no admin API
        std::function<std::int64_t()> clock; // unix seconds; default: system clock
        int workerThreads = 0; // 0 = max(16, 4 × ideal thread count): ingests wait in group commit
        // docs/buzz-protocol.md §WebSocket limits: ping every 30 s, 3 unanswered ⇒ disconnect;
        // BUZZ_MAX_CONNECTIONS (10 000), connections beyond it are closed silently.
        int pingIntervalMs = 30000;
        int maxConnections = 10000;
        // Connections (HTTP and WebSocket) open at once before the listener pauses; 0 = what the
        // file-descriptor limit allows when listening starts (GuardedTcpServer::descriptorBudget).
        int maxOpenConnections = 0;
        // Head and body size bounds and the head/body/idle timeouts of every HTTP connection,
        // checked before QHttpServer reads the request (relay/README.md "Limits").
        HttpLimits httpLimits;
        // Bytes a WebSocket may leave unread (everything the relay sends it) before it is cut.
        std::size_t maxOutboundBytes = OutboundQueue::kDefaultMaxBytes;
        // Bytes the relay holds for all clients together: answers being assembled and bytes
        // waiting unread (relay/README.md "Limits"; --max-outbound-mb).
        std::size_t maxRelayOutboundBytes = OutboundBudget::kDefaultLimitBytes;
    };

    static constexpr const char *kDefaultCommunity = "local";
    // Connections holding less unread than this are not cut for the relay-wide bound.
    static constexpr std::int64_t kMinShedBytes = 64 * 1024;
    static constexpr int kMemoryReleaseDelayMs = 200;
    static constexpr qsizetype kMaxBodyBytes = 1024 * 1024;

    RelayServer(RelayEngine &engine, Options options, QObject *parent = nullptr);
    ~RelayServer() override;

    // Listens on address:port (0 = any free port). False with errorString() on failure.
    bool start(const QHostAddress &address, quint16 port);
    // "HOST:PORT" (HOST may be a name like localhost, or [v6]).
    bool start(const QString &hostAndPort);
    bool isListening() const { return m_port != 0; }

    quint16 port() const { return m_port; }
    QString url() const; // the relay URL clients sign for (ws://…)
    QString httpUrl() const; // http://<listen host>:<port>, for the HTTP bridge
    QString errorString() const { return m_error; }
    const CommunityResolver &communities() const { return m_communities; }
    std::size_t sessionCount() const { return m_sessions.size(); }
    QThreadPool *workerPool() { return &m_workers; }
    const ServerMetrics &metrics() const { return m_metrics; }
    // Accepted TCP connections not yet closed and freed (HTTP and WebSocket).
    int openConnections() const;

    // Closes every WebSocket and stops listening; waits for engine calls in flight.
    void stop();

private:
    void installRoutes();
    std::optional<std::string> communityFor(const QHttpServerRequest &request) const;
    void serveInformation(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void serveMetrics(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void serveBridge(int endpoint, const QHttpServerRequest &request,
                     QHttpServerResponder &&responder);
    void upgrade(QTcpSocket *socket);
    WsFrameGuard *takeFrameGuard(const QWebSocket &socket);
    void acceptWebSockets();
    void onSessionFinished(WsSession *session);
    void relieveOutbound();
    void scheduleMemoryRelease();
    void releaseMemory();
    void onCommitted(std::shared_ptr<const StoredEvent> stored);
    void revokeLostAccess(const StoredEvent &stored);
    void updateGauges();

    RelayEngine &m_engine;
    Options m_options;
    QThreadPool m_workers;
    QThreadPool m_verifyPool; // JobQueue runners only (their threads are niced)
    std::unique_ptr<JobQueue> m_ingestJobs; // EVENT signature checks, on m_verifyPool
    QThreadPool m_fanout; // one thread: live events keep their commit-notification order
    ServerMetrics m_metrics;
    RelayMembership m_membership;
    ServerContext m_context;
    CommunityResolver m_communities;
    std::unique_ptr<HttpAuthenticator> m_authenticator;
    std::unique_ptr<QHttpServer> m_http;
    std::unique_ptr<QWebSocketServer> m_webSockets; // handshakes only: it never listens
    std::vector<QPointer<WsFrameGuard>> m_handshaking; // sockets handed to m_webSockets
    GuardedTcpServer *m_tcp = nullptr; // owned by m_http
    HttpBridge *m_bridge = nullptr;
    std::unordered_set<WsSession *> m_sessions;
    std::shared_ptr<OutboundBudget> m_budget;
    QTimer m_memoryRelease; // coalesces malloc_trim after large buffers were freed
    bool m_relieving = false;
    std::string m_nip11;
    QString m_listenHost;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace buzz::relay
