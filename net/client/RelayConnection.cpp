#include "net/client/RelayConnection.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"
#include "net/nostr/RelayUrl.h"

namespace buzz::client {

RelayConnection::RelayConnection(const QUrl &relayUrl, Signer *signer, QObject *parent)
    : QObject(parent)
    , m_relayUrl(relayUrl)
    , m_signer(signer ? signer : new Signer(this))
    , m_log(new RequestLog(this))
    , m_bridge(new HttpBridgeClient(relayUrl, m_signer, m_log, this))
    , m_socket(new RelaySocket(relayUrl, m_signer, m_log, this))
{
    connect(m_bridge, &HttpBridgeClient::requestUnanswered, m_socket, &RelaySocket::probe);
}

RelayConnection::~RelayConnection() = default;

QUrl RelayConnection::parseRelayUrl(const QString &text)
{
    QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (!trimmed.contains(QLatin1String("://")))
        trimmed.prepend(QLatin1String("http://"));
    QUrl url(trimmed, QUrl::StrictMode);
    static const QStringList schemes {QStringLiteral("ws"), QStringLiteral("wss"),
                                      QStringLiteral("http"), QStringLiteral("https")};
    if (!url.isValid() || url.host().isEmpty() || !schemes.contains(url.scheme().toLower()))
        return {};
    return url;
}

std::shared_ptr<const nostr::SecretKey> RelayConnection::secretKey() const
{
    return m_signer->key();
}

QString RelayConnection::publicKeyHex() const
{
    return m_signer->publicKeyHex();
}

QUrl RelayConnection::httpBase() const
{
    return m_bridge->httpBase();
}

QUrl RelayConnection::wsUrl() const
{
    return m_socket->wsUrl();
}

QString RelayConnection::communityHost() const
{
    QString authority = m_relayUrl.host();
    if (m_relayUrl.port() != -1)
        authority += QLatin1Char(':') + QString::number(m_relayUrl.port());
    return QString::fromStdString(nostr::normalizeHost(authority.toStdString()));
}

} // namespace buzz::client
