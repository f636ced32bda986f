#include "SessionModelRelay.h"

#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QUuid>

namespace buzz::test {

bool SessionModelRelay::start()
{
    if (!proxy.listen())
        return false;
    relay::RelayEngine::Options options;
    options.relaySecretKeyHex = nostr::SecretKey::generate().toHex();
    options.replicas = 1;
    options.readBudgetMs = kReadBudgetMs; // display reads may come from the replica, even paused
    engine = std::make_unique<relay::RelayEngine>(std::move(options));
    return engine->replicaSet() && startServer();
}

bool SessionModelRelay::startServer()
{
    relay::RelayServer::Options options;
    options.relayUrl = QStringLiteral("ws://127.0.0.1:%1").arg(proxy.port()).toStdString();
    options.clock = [] {
        return QDateTime::currentSecsSinceEpoch();
    };
    server = std::make_unique<relay::RelayServer>(*engine, std::move(options));
    if (!server->start(QHostAddress(QHostAddress::LocalHost), 0))
        return false;
    proxy.setUpstreamPort(server->port());
    return true;
}

bool SessionModelRelay::restart()
{
    // Stopping the server closes every connection it had; the proxy passes that on.
    server->stop();
    server.reset();
    return startServer();
}

QString SessionModelRelay::createChannel()
{
    const std::string channel =
        QUuid::createUuid().toString(QUuid::WithoutBraces).toLower().toStdString();
    const nostr::Event event =
        owner.signedEvent(nostr::kinds::kGroupCreate, QDateTime::currentSecsSinceEpoch(),
                          {{"h", channel}, {"name", "model"}, {"visibility", "open"}});
    const auto result =
        engine->ingest(event,
                       relay::RequestContext {relay::RelayServer::kDefaultCommunity,
                                              owner.publicKeyHex(), relay::Transport::Http});
    return result.accepted() ? QString::fromStdString(channel) : QString();
}

std::optional<canvas::CanvasRevision> SessionModelRelay::writerHead(const QString &channel)
{
    nostr::Filter filter;
    filter.kinds = std::vector<int> {canvas::kCanvasKind};
    filter.tags['h'] = {channel.toStdString()};
    filter.limit = 1;
    filter.consistency = nostr::Filter::Consistency::Strong;
    const relay::QueryResult result =
        engine->query({filter},
                      relay::RequestContext {relay::RelayServer::kDefaultCommunity,
                                             owner.publicKeyHex(), relay::Transport::Http},
                      relay::ReadPath::BridgeQuery);
    for (const relay::StoredEvent &stored : result.events) {
        if (auto revision = canvas::CanvasRevision::fromEvent(stored.event))
            return revision;
    }
    return std::nullopt;
}

SessionModelRelay::~SessionModelRelay()
{
    if (server)
        server->stop();
    server.reset();
    engine.reset();
}

} // namespace buzz::test
