#include "RelayTestFixture.h"

#include "PgTestCluster.h"

#include <QDateTime>
#include <QUuid>

namespace buzz::relay::test {

nostr::Event TestIdentity::sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                                std::string content) const
{
    return key.signedEvent(kind, createdAt, std::move(tags), std::move(content));
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
    RelayHost::Config setup;
    setup.engine.dataDir = m_options.dataDir;
    // A PostgreSQL run (BUZZ_TEST_STORE=postgres): a fresh schema instead of SQLite.
    if (auto pg = PgTestCluster::freshStore()) {
        setup.engine.databaseUrl = pg->writer;
        setup.engine.dataDir.reset();
    }
    if (!m_options.databaseUrl.empty()) {
        setup.engine.databaseUrl = m_options.databaseUrl;
        setup.engine.readDatabaseUrl = m_options.readDatabaseUrl;
        setup.engine.readBudgetMs = m_options.readBudgetMs;
        setup.engine.dataDir.reset();
    }
    setup.engine.relaySecretKeyHex = relayKey.toHex();
    setup.engine.clock = [this] {
        return now();
    };
    setup.server.relayUrl = m_options.relayUrl;
    setup.server.communities = m_options.communities;
    setup.server.acceptDevPubkeyHeader = m_options.devPubkeyHeader;
    setup.server.requireRelayMembership = m_options.requireRelayMembership;
    setup.server.relayMembers = m_options.relayMembers;
    setup.server.pingIntervalMs = m_options.pingIntervalMs;
    setup.server.maxConnections = m_options.maxConnections;
    setup.server.httpLimits = m_options.httpLimits;
    setup.server.maxOutboundBytes = m_options.maxOutboundBytes;
    setup.server.maxRelayOutboundBytes = m_options.maxRelayOutboundBytes;
    setup.server.clock = [this] {
        return now();
    };
    m_host = std::make_unique<RelayHost>(std::move(setup));
    if (m_options.autoStart)
        start();
}

RelayTestFixture::~RelayTestFixture() = default;

bool RelayTestFixture::start()
{
    return m_host->start(QHostAddress(QHostAddress::LocalHost), 0);
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
        engine().ingest(event, RequestContext {community, owner.pubkey(), Transport::Http});
    return result.accepted() ? channel : std::string();
}

} // namespace buzz::relay::test
