#include "relay/RelayHost.h"

#include "net/nostr/Keys.h"
#include "relay/replication/RelayClock.h"

#include <QDir>

#include <set>
#include <string>

namespace buzz::relay {

RelayHost::RelayHost(Config config)
    : m_seedDemo(config.seedDemo)
{
    RelayEngine::Options &engine = config.engine;
    if (engine.dataDir) {
        const QString dir = QString::fromStdString(*engine.dataDir);
        if (!QDir().mkpath(dir)) {
            m_error = QStringLiteral("cannot create data directory %1").arg(dir);
            return;
        }
        engine.dataDir = QDir(dir).absolutePath().toStdString();
    }
    if (engine.relaySecretKeyHex.empty())
        engine.relaySecretKeyHex = nostr::SecretKey::generate().toHex();
    m_engine = std::make_unique<RelayEngine>(std::move(engine));
    if (const std::string problem = m_engine->startupError(); !problem.empty()) {
        m_error = QStringLiteral("cannot open the store: %1").arg(QString::fromStdString(problem));
        m_engine.reset();
        return;
    }
    if (!config.server.clock) {
        config.server.clock = [engine = m_engine.get()] {
            return engine->relayClock().nowSec();
        };
    }
    m_server = std::make_unique<RelayServer>(*m_engine, std::move(config.server));
}

RelayHost::~RelayHost()
{
    stop();
    m_server.reset(); // waits for engine calls in flight before the engine goes
    m_engine.reset();
}

bool RelayHost::start(const QString &hostAndPort)
{
    return started(isOpen() && m_server->start(hostAndPort));
}

bool RelayHost::start(const QHostAddress &address, quint16 port)
{
    return started(isOpen() && m_server->start(address, port));
}

bool RelayHost::started(bool listening)
{
    if (!listening) {
        if (m_server)
            m_error = m_server->errorString();
        return false;
    }
    if (m_seedDemo) {
        m_seedDemo = false;
        std::set<std::string> seeded;
        for (const auto &[host, community] : m_server->communities().mappings()) {
            if (seeded.insert(community).second)
                m_engine->seedDemo(community);
        }
    }
    return true;
}

void RelayHost::stop()
{
    if (m_server)
        m_server->stop();
}

} // namespace buzz::relay
