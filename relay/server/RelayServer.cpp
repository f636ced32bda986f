#include "relay/server/RelayServer.h"

#include "net/nostr/Kinds.h"
#include "net/nostr/RelayUrl.h"
#include "relay/server/AdminApi.h"
#include "relay/server/GuardedTcpServer.h"
#include "relay/server/HttpBridge.h"
#include "relay/server/HttpReply.h"
#include "relay/server/Nip11Document.h"
#include "relay/server/OrderedReply.h"
#include "relay/server/WsFrameGuard.h"
#include "relay/server/WsSession.h"

#include <QDateTime>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QLoggingCategory>
#include <QTcpSocket>
#include <QUrl>
#include <QWebSocket>
#include <QWebSocketServer>

#include <algorithm>
#include <set>

#ifdef __GLIBC__
#include <malloc.h>
#endif

Q_LOGGING_CATEGORY(lcRelayServer, "buzz.relay.server")

namespace buzz::relay {

namespace {

std::int64_t systemClock()
{
    return QDateTime::currentSecsSinceEpoch();
}

QString hostForUrl(const QHostAddress &address, const QString &listenHost)
{
    // A wildcard bind is reached through loopback by local clients.
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4
        || address == QHostAddress::AnyIPv6)
        return QStringLiteral("127.0.0.1");
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        return QLatin1Char('[') + address.toString() + QLatin1Char(']');
    return listenHost.isEmpty() ? address.toString() : listenHost;
}

} // namespace

RelayServer::RelayServer(RelayEngine &engine, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_options(std::move(options))
{
    if (!m_options.clock)
        m_options.clock = systemClock;
    const int threads = m_options.workerThreads > 0 ? m_options.workerThreads
                                                    : std::max(16, 4 * QThread::idealThreadCount());
    m_workers.setMaxThreadCount(threads);
    m_fanout.setMaxThreadCount(1);

    m_context.pingIntervalMs = std::max(1, m_options.pingIntervalMs);
    m_context.maxOutboundBytes = m_options.maxOutboundBytes;
    m_budget = std::make_shared<OutboundBudget>(m_options.maxRelayOutboundBytes);
    m_context.budget = m_budget;
    m_context.relieveOutbound = [this] {
        relieveOutbound();
    };
    m_context.releaseMemory = [this] {
        scheduleMemoryRelease();
    };
    m_engine.setOutboundBudget(m_budget);
    m_memoryRelease.setSingleShot(true);
    m_memoryRelease.setInterval(kMemoryReleaseDelayMs);
    connect(&m_memoryRelease, &QTimer::timeout, this, &RelayServer::releaseMemory);
    m_context.engine = &m_engine;
    m_context.workers = &m_workers;
    // One runner per core: signature checks are pure CPU, more runners would only take turns.
    // They run at a lower priority (nice 5) on threads of their own: the single writer thread is
    // the ingest bottleneck, and when both cores are busy it should win over work that can wait.
    const int runners = std::max(1, QThread::idealThreadCount());
    m_verifyPool.setMaxThreadCount(runners);
    m_ingestJobs = std::make_unique<JobQueue>(m_verifyPool, runners, 5);
    m_context.ingestJobs = m_ingestJobs.get();
    m_context.mailbox = std::make_shared<NetworkThreadMailbox>(this);
    m_context.metrics = &m_metrics;
    m_context.clock = m_options.clock;
    m_membership = RelayMembership(m_options.requireRelayMembership, m_options.relayMembers,
                                   m_engine.relayPublicKeyHex());
    m_context.membership = m_membership.isRequired() ? &m_membership : nullptr;
}

RelayServer::~RelayServer()
{
    stop();
    m_context.mailbox->close();
    m_engine.setOutboundBudget(nullptr);
}

bool RelayServer::start(const QString &hostAndPort)
{
    const qsizetype colon = hostAndPort.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0) {
        m_error = QStringLiteral("listen address must be HOST:PORT, got %1").arg(hostAndPort);
        return false;
    }
    QString host = hostAndPort.left(colon);
    bool portOk = false;
    const uint port = hostAndPort.mid(colon + 1).toUInt(&portOk);
    if (!portOk || port > 65535) {
        m_error = QStringLiteral("invalid port in listen address %1").arg(hostAndPort);
        return false;
    }
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    QHostAddress address;
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        address = QHostAddress(QHostAddress::LocalHost);
    else if (!address.setAddress(host)) {
        m_error = QStringLiteral("invalid listen host %1").arg(host);
        return false;
    }
    m_listenHost = host.contains(QLatin1Char(':')) ? QString() : host;
    return start(address, quint16(port));
}

bool RelayServer::start(const QHostAddress &address, quint16 port)
{
    if (isListening()) {
        m_error = QStringLiteral("already listening");
        return false;
    }
    m_webSockets = std::make_unique<QWebSocketServer>(QStringLiteral("QtHttpServer"),
                                                      QWebSocketServer::NonSecureMode);
    connect(m_webSockets.get(), &QWebSocketServer::newConnection, this,
            &RelayServer::acceptWebSockets);
    HttpConnectionGuard::Hooks hooks;
    hooks.isKnownHost = [this](std::string_view host) {
        return m_communities.resolve(host).has_value();
    };
    // A WebSocket handshake never reaches QHttpServer (relay/README.md "Limits"): its guard
    // hands the socket, head unread, to this server, which answers 101.
    hooks.upgrade = [this](QTcpSocket *socket) {
        upgrade(socket);
    };
    hooks.metrics = &m_metrics;
    hooks.budget = m_budget;
    hooks.relieveOutbound = m_context.relieveOutbound;
    hooks.releaseMemory = m_context.releaseMemory;
    auto tcp = std::make_unique<GuardedTcpServer>(m_options.httpLimits, std::move(hooks),
                                                  m_options.maxOpenConnections > 0
                                                      ? m_options.maxOpenConnections
                                                      : GuardedTcpServer::descriptorBudget());
    if (!tcp->listen(address, port)) {
        m_error = QStringLiteral("cannot listen on %1:%2: %3")
                      .arg(address.toString())
                      .arg(port)
                      .arg(tcp->errorString());
        return false;
    }
    m_http = std::make_unique<QHttpServer>();
    installRoutes();
    m_tcp = tcp.release();
    m_tcp->setHttpServer(m_http.get());
    m_http->bind(m_tcp); // the HTTP server owns it from here
    m_port = m_tcp->serverPort();
    if (m_listenHost.isEmpty())
        m_listenHost = address.toString();
    const QString urlHost = hostForUrl(address, m_listenHost);
    if (m_options.relayUrl.empty())
        m_options.relayUrl = QStringLiteral("ws://%1:%2").arg(urlHost).arg(m_port).toStdString();
    m_context.relayUrl = m_options.relayUrl;

    for (const auto &[host, community] : m_options.communities)
        m_communities.addMapping(host, community);
    // Local clients reach the relay through loopback (127.0.0.1 and localhost fold together) and
    // through the host of the relay URL; both belong to the default community unless mapped.
    const std::string loopback = "127.0.0.1:" + std::to_string(m_port);
    if (!m_communities.hasMapping(loopback))
        m_communities.addMapping(loopback, kDefaultCommunity);
    const QUrl relayUrl(QString::fromStdString(m_options.relayUrl));
    QString relayAuthority = relayUrl.host();
    if (relayUrl.port() > 0)
        relayAuthority += QLatin1Char(':') + QString::number(relayUrl.port());
    if (!relayAuthority.isEmpty() && !m_communities.hasMapping(relayAuthority.toStdString()))
        m_communities.addMapping(relayAuthority.toStdString(), kDefaultCommunity);

    m_authenticator = std::make_unique<HttpAuthenticator>(
        HttpAuthenticator::Options {m_options.relayUrl, m_options.acceptDevPubkeyHeader,
                                    m_options.clock, m_engine.sharedReplayCache()});
    m_bridge = new HttpBridge(m_context, *m_authenticator, this);
    m_nip11 = nip11DocumentJson(m_engine.relayPublicKeyHex(), m_membership.isRequired());

    QPointer<RelayServer> self(this);
    // Through the mailbox, like the OKs: the writer thread posts a batch per group commit, not a
    // call per event.
    m_engine.setCommitListener(
        [self, mailbox = m_context.mailbox](std::shared_ptr<const StoredEvent> shared) {
            mailbox->post([self, shared] {
                if (self)
                    self->onCommitted(shared);
            });
        });
    qCInfo(lcRelayServer) << "listening on" << httpUrl() << "relay URL" << url() << "- at most"
                          << m_tcp->maxOpenConnections() << "connections at once";
    return true;
}

void RelayServer::stop()
{
    if (!m_http)
        return;
    m_engine.setCommitListener({});
    for (WsSession *session : std::vector<WsSession *>(m_sessions.begin(), m_sessions.end()))
        delete session;
    m_sessions.clear();
    m_tcp = nullptr;
    m_webSockets.reset(); // handshakes not yet answered
    m_http.reset(); // stops listening and drops HTTP connections
    m_workers.waitForDone();
    m_verifyPool.waitForDone();
    m_context.pendingReplies->waitForNone(); // ingests still in a group commit
    m_fanout.waitForDone();
    delete m_bridge; // after the workers: no reply can target it any more
    m_bridge = nullptr;
    m_port = 0;
}

int RelayServer::openConnections() const
{
    return m_tcp ? m_tcp->openConnections() : 0;
}

QString RelayServer::url() const
{
    return QString::fromStdString(m_options.relayUrl);
}

QString RelayServer::httpUrl() const
{
    QString host = m_listenHost;
    if (host.isEmpty() || host == QLatin1String("0.0.0.0") || host == QLatin1String("::"))
        host = QStringLiteral("127.0.0.1");
    else if (host.contains(QLatin1Char(':')))
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(m_port);
}

std::optional<std::string> RelayServer::communityFor(const QHttpServerRequest &request) const
{
    return m_communities.resolve(request.value("Host").toStdString());
}

void RelayServer::installRoutes()
{
    using Method = QHttpServerRequest::Method;
    // WebSocket upgrades never get here: HttpConnectionGuard hands them to m_webSockets. Nothing
    // is connected to QHttpServer's newWebSocketConnection, so one that did would be refused.
    m_http->route("/", Method::Get,
                  [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                      serveInformation(request, std::move(responder));
                  });
    m_http->route("/info", Method::Get,
                  [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                      serveInformation(request, std::move(responder));
                  });
    m_http->route("/health", Method::Get,
                  [this](const QHttpServerRequest &, QHttpServerResponder &&responder) {
                      m_metrics.increment(ServerMetrics::httpSeries("/health", 200));
                      writeReply(responder, HttpReply::text("ok", "text/plain; charset=utf-8"));
                  });
    m_http->route("/metrics", Method::Get,
                  [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                      serveMetrics(request, std::move(responder));
                  });
    const std::pair<const char *, HttpBridge::Endpoint> bridgeRoutes[] = {
        {"/events", HttpBridge::Endpoint::Events},
        {"/query", HttpBridge::Endpoint::Query},
        {"/count", HttpBridge::Endpoint::Count},
    };
    for (const auto &[path, endpoint] : bridgeRoutes) {
        m_http->route(path, Method::Post,
                      [this, endpoint = int(endpoint)](const QHttpServerRequest &request,
                                                       QHttpServerResponder &&responder) {
                          serveBridge(endpoint, request, std::move(responder));
                      });
    }
    AdminApi::install(*m_http, m_engine, m_options.adminToken, m_context, this);
    m_http->setMissingHandler([this](const QHttpServerRequest &, QHttpServerResponder &&responder) {
        m_metrics.increment(ServerMetrics::httpSeries("other", 404));
        writeReply(responder, HttpReply::error(404, "not found"));
    });
}

void RelayServer::serveInformation(const QHttpServerRequest &request,
                                   QHttpServerResponder &&responder)
{
    const std::string route = request.url().path().toStdString();
    if (!communityFor(request)) {
        m_metrics.increment(ServerMetrics::httpSeries(route, 404));
        writeReply(responder, HttpReply::error(404, CommunityResolver::kUnknownHostError));
        return;
    }
    const bool nostrJson = request.value("Accept").contains("application/nostr+json");
    HttpReply reply =
        HttpReply::text(m_nip11, nostrJson ? "application/nostr+json" : "application/json");
    reply.headers.emplace_back("Access-Control-Allow-Origin", "*");
    m_metrics.increment(ServerMetrics::httpSeries(route, 200));
    writeReply(responder, reply);
}

void RelayServer::serveMetrics(const QHttpServerRequest &, QHttpServerResponder &&responder)
{
    m_metrics.increment(ServerMetrics::httpSeries("/metrics", 200));
    updateGauges();
    auto own = std::make_shared<std::string>(m_metrics.text());
    auto parked = std::make_shared<OrderedReply>(std::move(responder));
    RelayEngine *engine = &m_engine;
    // The reply never leaves this thread: the worker only computes the engine's text.
    m_context.runOffThread(
        this, [engine] { return engine->metricsText(); },
        [own, parked](std::string engineText) {
            parked->send(
                HttpReply::text(*own + engineText, "text/plain; version=0.0.4; charset=utf-8"));
        });
}

void RelayServer::serveBridge(int endpoint, const QHttpServerRequest &request,
                              QHttpServerResponder &&responder)
{
    const std::string route = request.url().path().toStdString();
    if (request.body().size() > kMaxBodyBytes) {
        m_metrics.increment(ServerMetrics::httpSeries(route, 413));
        writeReply(responder,
                   HttpReply::text("length limit exceeded", "text/plain; charset=utf-8", 413));
        return;
    }
    auto community = communityFor(request);
    if (!community) {
        m_metrics.increment(ServerMetrics::httpSeries(route, 404));
        writeReply(responder, HttpReply::error(404, CommunityResolver::kUnknownHostError));
        return;
    }
    m_bridge->handle(HttpBridge::Endpoint(endpoint), std::move(*community), request,
                     std::move(responder));
}

void RelayServer::upgrade(QTcpSocket *socket)
{
    if (!m_webSockets) {
        socket->abort();
        return;
    }
    // Small OK/EVENT frames must not wait for delayed ACKs.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // Before QWebSocketServer and QWebSocket connect to the socket: its slot must run first.
    m_handshaking.emplace_back(new WsFrameGuard(socket));
    m_webSockets->handleConnection(socket);
}

WsFrameGuard *RelayServer::takeFrameGuard(const QWebSocket &socket)
{
    WsFrameGuard *found = nullptr;
    // Few at a time: only handshakes not yet answered, and the ones whose socket closed.
    std::erase_if(m_handshaking, [&](const QPointer<WsFrameGuard> &guard) {
        if (!guard)
            return true;
        const QTcpSocket *tcp = guard->socket();
        if (found || tcp->peerPort() != socket.peerPort()
            || tcp->peerAddress() != socket.peerAddress())
            return false;
        found = guard;
        return true;
    });
    return found;
}

void RelayServer::acceptWebSockets()
{
    while (m_webSockets && m_webSockets->hasPendingConnections()) {
        std::unique_ptr<QWebSocket> socket(m_webSockets->nextPendingConnection());
        if (!socket)
            break;
        WsFrameGuard *frames = takeFrameGuard(*socket);
        QByteArray host = socket->request().rawHeader("Host");
        if (host.isEmpty()) {
            const QUrl url = socket->request().url();
            host = url.host().toUtf8();
            if (url.port() > 0)
                host += ':' + QByteArray::number(url.port());
        }
        auto community = m_communities.resolve(host.toStdString());
        if (!community) {
            m_metrics.increment(ServerMetrics::labelled("buzz_ws_connections_refused_total",
                                                        "reason", "unknown_host"));
            QWebSocket *refused = socket.release();
            refused->setParent(this);
            connect(refused, &QWebSocket::disconnected, refused, &QObject::deleteLater);
            refused->close(
                QWebSocketProtocol::CloseCodePolicyViolated,
                QString::fromUtf8(CommunityResolver::kUnknownHostError.data(),
                                  qsizetype(CommunityResolver::kUnknownHostError.size())));
            continue;
        }
        if (m_sessions.size() >= std::size_t(std::max(0, m_options.maxConnections))) {
            // Upstream closes excess connections without a word (no close frame, no NOTICE).
            m_metrics.increment(ServerMetrics::labelled("buzz_ws_connections_refused_total",
                                                        "reason", "max_connections"));
            socket->abort();
            continue;
        }
        const bool secure = QString::fromStdString(m_options.relayUrl)
                                .startsWith(QLatin1String("wss://"), Qt::CaseInsensitive);
        std::string authRelayUrl = std::string(secure ? "wss://" : "ws://")
            + nostr::normalizeHost(std::string_view(host.constData(), std::size_t(host.size())));
        auto *session = new WsSession(std::move(socket), frames, std::move(*community),
                                      std::move(authRelayUrl), m_context, this);
        connect(session, &WsSession::finished, this, &RelayServer::onSessionFinished);
        m_sessions.insert(session);
    }
}

void RelayServer::onSessionFinished(WsSession *session)
{
    if (m_sessions.erase(session))
        session->deleteLater();
}

void RelayServer::relieveOutbound()
{
    if (m_relieving)
        return; // a cut below re-enters through the session's own accounting
    m_relieving = true;
    // The slowest consumers hold the most unread bytes: cut them, one at a time, until the
    // relay-wide bound holds again. What answers being assembled hold is not theirs to give.
    while (m_budget->over()) {
        WsSession *session = nullptr;
        for (WsSession *candidate : m_sessions) {
            if (!session || candidate->waitingBytes() > session->waitingBytes())
                session = candidate;
        }
        HttpConnectionGuard *http = nullptr;
        if (m_tcp) {
            for (HttpConnectionGuard *candidate : m_tcp->httpGuards()) {
                if (!http || candidate->waitingBytes() > http->waitingBytes())
                    http = candidate;
            }
        }
        const std::int64_t wsBytes = session ? session->waitingBytes() : 0;
        const std::int64_t httpBytes = http ? http->waitingBytes() : 0;
        if (std::max(wsBytes, httpBytes) < kMinShedBytes)
            break;
        if (wsBytes >= httpBytes)
            session->dropForRelayOutbound();
        else
            http->shed();
    }
    m_relieving = false;
}

void RelayServer::scheduleMemoryRelease()
{
    if (!m_memoryRelease.isActive())
        m_memoryRelease.start();
}

void RelayServer::releaseMemory()
{
    // glibc keeps freed memory in its arenas (one per worker thread that built an answer) until
    // trimmed: answers and socket buffers of slow clients just went.
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    m_metrics.increment("buzz_memory_releases_total");
}

void RelayServer::updateGauges()
{
    m_metrics.setGauge("buzz_outbound_bytes", m_budget->used());
    m_metrics.setGauge("buzz_outbound_limit_bytes", std::int64_t(m_budget->limit()));
    std::size_t subscriptions = 0;
    for (const WsSession *session : m_sessions)
        subscriptions += session->subscriptionCount();
    m_metrics.setGauge("buzz_ws_connections_active", std::int64_t(m_sessions.size()));
    m_metrics.setGauge("buzz_ws_subscriptions_active", std::int64_t(subscriptions));
}

void RelayServer::revokeLostAccess(const StoredEvent &stored)
{
    auto holders = std::make_shared<std::vector<QPointer<WsSession>>>();
    std::set<std::string> pubkeys;
    for (WsSession *session : m_sessions) {
        if (session->community() == stored.community && session->subscribesTo(*stored.channel)) {
            holders->emplace_back(session);
            pubkeys.insert(session->pubkey());
        }
    }
    if (holders->empty())
        return;
    RelayEngine *engine = &m_engine;
    // Queued on the fan-out thread ahead of this event's own delivery, which re-checks access
    // per recipient too: a removed member sees neither the removal nor anything after it (both
    // reach the network thread through the one mailbox, in that order).
    m_fanout.start([engine, mailbox = m_context.mailbox, holders, pubkeys = std::move(pubkeys),
                    community = stored.community, channel = *stored.channel] {
        auto lost = std::make_shared<std::set<std::string>>();
        for (const std::string &pubkey : pubkeys) {
            if (!engine->canRead(community, channel, pubkey))
                lost->insert(pubkey);
        }
        if (lost->empty())
            return;
        mailbox->post([holders, lost, channel] {
            for (const auto &session : *holders) {
                if (session && lost->count(session->pubkey()))
                    session->revokeChannel(channel);
            }
        });
    });
}

void RelayServer::onCommitted(std::shared_ptr<const StoredEvent> stored)
{
    // Membership removals, leaves, visibility changes and deletions can take read access away.
    const int kind = stored->event.kind;
    if (stored->channel
        && (kind == nostr::kinds::kGroupRemoveMember || kind == nostr::kinds::kGroupLeave
            || kind == nostr::kinds::kGroupEditMetadata || kind == nostr::kinds::kGroupDelete))
        revokeLostAccess(*stored);
    auto recipients = std::make_shared<std::vector<QPointer<WsSession>>>();
    std::set<std::string> pubkeys;
    for (WsSession *session : m_sessions) {
        if (session->wantsLive(*stored)) {
            recipients->emplace_back(session);
            pubkeys.insert(session->pubkey());
        }
    }
    if (recipients->empty())
        return;
    RelayEngine *engine = &m_engine;
    // Per-recipient read checks hit the store, so they run off the network thread; one fan-out
    // thread keeps deliveries in notification order.
    m_fanout.start([engine, mailbox = m_context.mailbox, stored, recipients,
                    pubkeys = std::move(pubkeys)] {
        auto allowed = std::make_shared<std::set<std::string>>();
        for (const std::string &pubkey : pubkeys) {
            if (!stored->channel || engine->canRead(stored->community, *stored->channel, pubkey))
                allowed->insert(pubkey);
        }
        mailbox->post([stored, recipients, allowed] {
            for (const auto &session : *recipients) {
                if (session && allowed->count(session->pubkey()))
                    session->deliverLive(stored);
            }
        });
    });
}

} // namespace buzz::relay
