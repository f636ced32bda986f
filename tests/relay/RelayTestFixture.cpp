#include "RelayTestFixture.h"

#include <QDateTime>
#include <QUuid>

namespace buzz::relay::test {

nostr::Event TestIdentity::sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                                std::string content) const
{
    nostr::Event event;
    event.kind = kind;
    event.createdAt = createdAt;
    event.tags = std::move(tags);
    event.content = std::move(content);
    key.signEvent(event);
    return event;
}

std::string newChannelId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toLower().toStdString();
}

RelayTestFixture::RelayTestFixture()
    : RelayTestFixture(Options {})
{ }

RelayTestFixture::RelayTestFixture(Options options)
    : m_options(std::move(options))
{
    auto relayKey = nostr::SecretKey::generate();
    m_relayPublicKey = relayKey.publicKeyHex();
    RelayEngine::Options engineOptions;
    engineOptions.dataDir = m_options.dataDir;
    engineOptions.relaySecretKeyHex = relayKey.toHex();
    engineOptions.clock = [this] {
        return now();
    };
    m_engine = std::make_unique<RelayEngine>(std::move(engineOptions));

    RelayServer::Options serverOptions;
    serverOptions.relayUrl = m_options.relayUrl;
    serverOptions.communities = m_options.communities;
    serverOptions.acceptDevPubkeyHeader = m_options.devPubkeyHeader;
    serverOptions.requireRelayMembership = m_options.requireRelayMembership;
    serverOptions.relayMembers = m_options.relayMembers;
    serverOptions.pingIntervalMs = m_options.pingIntervalMs;
    serverOptions.maxConnections = m_options.maxConnections;
    serverOptions.clock = [this] {
        return now();
    };
    m_server = std::make_unique<RelayServer>(*m_engine, std::move(serverOptions));
    if (m_options.autoStart)
        start();
}

RelayTestFixture::~RelayTestFixture()
{
    m_server.reset(); // waits for engine calls in flight before the engine goes
    m_engine.reset();
}

bool RelayTestFixture::start()
{
    return m_server->start(QHostAddress(QHostAddress::LocalHost), 0);
}

QUrl RelayTestFixture::httpUrl(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path));
}

std::int64_t RelayTestFixture::now() const
{
    return m_options.systemClock ? QDateTime::currentSecsSinceEpoch() : m_now.load();
}

std::string RelayTestFixture::createChannel(const TestIdentity &owner, const std::string &name,
                                            const std::string &visibility,
                                            const std::string &community)
{
    const std::string channel = newChannelId();
    const auto event =
        owner.sign(9007, now(), {{"h", channel}, {"name", name}, {"visibility", visibility}});
    const auto result =
        m_engine->ingest(event, RequestContext {community, owner.pubkey(), Transport::Http});
    return result.accepted() ? channel : std::string();
}

} // namespace buzz::relay::test
