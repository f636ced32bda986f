#include "RelayTestFixtureHttpClient.h"

#include "net/nostr/Nip98.h"
#include "net/nostr/RelayUrl.h"

#include <QBuffer>
#include <QEventLoop>
#include <QNetworkReply>
#include <QTimer>

namespace buzz::relay::test {

QByteArray HttpTestResponse::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

nlohmann::json HttpTestResponse::json() const
{
    return nlohmann::json::parse(body.constBegin(), body.constEnd(), nullptr, false);
}

std::string HttpTestResponse::error() const
{
    const auto value = json();
    if (value.is_object() && value.contains("error") && value["error"].is_string())
        return value["error"].get<std::string>();
    return {};
}

HttpTestClient::HttpTestClient(RelayTestFixture &relay, const nostr::SecretKey *key)
    : m_relay(relay)
    , m_key(key)
{ }

HttpTestResponse HttpTestClient::postEvent(const nostr::Event &event)
{
    return post(QStringLiteral("/events"), QByteArray::fromStdString(event.toJson()));
}

HttpTestResponse HttpTestClient::query(const std::string &filtersJson)
{
    return post(QStringLiteral("/query"), QByteArray::fromStdString(filtersJson));
}

HttpTestResponse HttpTestClient::count(const std::string &filtersJson)
{
    return post(QStringLiteral("/count"), QByteArray::fromStdString(filtersJson));
}

QByteArray HttpTestClient::authorizationFor(const QString &path, const QByteArray &body,
                                            std::optional<std::int64_t> at) const
{
    // A client signs for the host it addresses, as the relay binds `u` to the tenant host.
    std::string base = nostr::httpBaseFromRelayUrl(m_relay.relayUrl());
    if (!m_host.isEmpty())
        base = base.substr(0, base.find("://") + 3) + m_host.toStdString();
    const std::string url = base + path.toStdString();
    return QByteArray::fromStdString(nostr::nip98::buildAuthorizationHeader(
        *m_key, url, "POST", std::string_view(body.constData(), std::size_t(body.size())),
        at.value_or(m_relay.now())));
}

HttpTestResponse HttpTestClient::post(const QString &path, const QByteArray &body,
                                      const QList<QPair<QByteArray, QByteArray>> &headers,
                                      const QByteArray &authorization)
{
    auto allHeaders = headers;
    if (!authorization.isEmpty())
        allHeaders.append(qMakePair(QByteArray("Authorization"), authorization));
    else if (m_key)
        allHeaders.append(qMakePair(QByteArray("Authorization"), authorizationFor(path, body)));
    allHeaders.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    return send("POST", path, body, allHeaders);
}

HttpTestResponse HttpTestClient::get(const QString &path,
                                     const QList<QPair<QByteArray, QByteArray>> &headers)
{
    return send("GET", path, {}, headers);
}

HttpTestResponse HttpTestClient::send(const QByteArray &verb, const QString &path,
                                      const QByteArray &body,
                                      const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(m_relay.httpUrl(path));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (!m_host.isEmpty())
        request.setRawHeader("Host", m_host);
    auto *buffer = new QBuffer;
    buffer->setData(body);
    QNetworkReply *reply = m_network.sendCustomRequest(request, verb, buffer);
    buffer->setParent(reply);

    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    timeout.start(m_timeoutMs);
    if (!reply->isFinished())
        loop.exec();

    HttpTestResponse response;
    if (reply->isFinished()) {
        response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        response.body = reply->readAll();
        for (const auto &pair : reply->rawHeaderPairs())
            response.headers.append(pair);
    } else {
        reply->abort();
    }
    reply->deleteLater();
    return response;
}

} // namespace buzz::relay::test
