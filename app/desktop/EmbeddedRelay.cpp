#include "app/desktop/EmbeddedRelay.h"

#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/server/RelayServer.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QSaveFile>

Q_LOGGING_CATEGORY(lcEmbeddedRelay, "buzz.desktop.relay")

namespace buzz::desktop {

namespace {

// The relay's own signing key, persisted next to its data (relay-signed channel metadata must
// keep verifying after a restart).
std::string relayKeyHex(const QString &dataDir)
{
    if (dataDir.isEmpty())
        return nostr::SecretKey::generate().toHex();
    const QString path = QDir(dataDir).filePath(QStringLiteral("relay.key"));
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly)) {
        if (auto key = nostr::SecretKey::parse(existing.readAll().trimmed().toStdString()))
            return key->toHex();
        qCWarning(lcEmbeddedRelay) << "relay key file unreadable, generating a new one";
    }
    const std::string hex = nostr::SecretKey::generate().toHex();
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        file.write(QByteArray::fromStdString(hex));
        file.commit();
    }
    return hex;
}

} // namespace

EmbeddedRelay::EmbeddedRelay(QObject *parent)
    : QObject(parent)
{ }

EmbeddedRelay::~EmbeddedRelay()
{
    stop();
}

bool EmbeddedRelay::start(const QString &dataDir, int replicas, std::optional<qint64> readBudgetMs)
{
    relay::RelayEngine::Options engineOptions;
    if (!dataDir.isEmpty()) {
        if (!QDir().mkpath(dataDir)) {
            m_error = QStringLiteral("cannot create %1").arg(dataDir);
            return false;
        }
        engineOptions.dataDir = QDir(dataDir).absolutePath().toStdString();
    }
    engineOptions.relaySecretKeyHex = relayKeyHex(dataDir);
    engineOptions.replicas = replicas;
    if (readBudgetMs)
        engineOptions.readBudgetMs = *readBudgetMs;
    else if (replicas == 0)
        engineOptions.readBudgetMs = 0; // the app's own relay: every read on the writer
    m_engine = std::make_unique<relay::RelayEngine>(std::move(engineOptions));
    if (const std::string problem = m_engine->startupError(); !problem.empty()) {
        m_error = QString::fromStdString(problem);
        m_engine.reset();
        return false;
    }
    m_server = std::make_unique<relay::RelayServer>(*m_engine, relay::RelayServer::Options {});
    if (!m_server->start(QHostAddress::LocalHost, 0)) {
        m_error = m_server->errorString();
        m_server.reset();
        m_engine.reset();
        return false;
    }
    qCInfo(lcEmbeddedRelay) << "embedded relay listening on" << m_server->url();
    return true;
}

void EmbeddedRelay::stop()
{
    if (m_server)
        m_server->stop();
    m_server.reset();
    m_engine.reset();
}

QString EmbeddedRelay::url() const
{
    return m_server ? m_server->url() : QString();
}

QString EmbeddedRelay::httpUrl() const
{
    return m_server ? m_server->httpUrl() : QString();
}

quint16 EmbeddedRelay::port() const
{
    return m_server ? m_server->port() : 0;
}

} // namespace buzz::desktop
