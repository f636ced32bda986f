#include "app/desktop/EmbeddedRelay.h"

#include "net/nostr/Keys.h"
#include "relay/RelayHost.h"

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

bool EmbeddedRelay::start(const QString &dataDir, int replicas, qint64 readBudgetMs)
{
    relay::RelayHost::Config setup;
    if (!dataDir.isEmpty()) {
        if (!QDir().mkpath(dataDir)) { // before the key file is written there
            m_error = QStringLiteral("cannot create %1").arg(dataDir);
            return false;
        }
        setup.engine.dataDir = dataDir.toStdString();
    }
    setup.engine.relaySecretKeyHex = relayKeyHex(dataDir);
    setup.engine.replicas = replicas;
    setup.engine.readBudgetMs = readBudgetMs;
    setup.server.relayUrl = m_advertisedUrl.toStdString();
    m_host = std::make_unique<relay::RelayHost>(std::move(setup));
    if (!m_host->isOpen() || !m_host->start()) {
        m_error = m_host->errorString();
        m_host.reset();
        return false;
    }
    qCInfo(lcEmbeddedRelay) << "embedded relay listening on" << m_host->url();
    return true;
}

void EmbeddedRelay::stop()
{
    m_host.reset();
}

QString EmbeddedRelay::url() const
{
    return m_host ? m_host->url() : QString();
}

QString EmbeddedRelay::httpUrl() const
{
    return m_host ? m_host->httpUrl() : QString();
}

quint16 EmbeddedRelay::port() const
{
    return m_host ? m_host->port() : 0;
}

relay::RelayEngine *EmbeddedRelay::engine() const
{
    return m_host ? &m_host->engine() : nullptr;
}

relay::RelayServer *EmbeddedRelay::server() const
{
    return m_host ? &m_host->server() : nullptr;
}

} // namespace buzz::desktop
