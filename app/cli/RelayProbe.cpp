#include "RelayProbe.h"

#include "net/client/CappedReply.h"
#include "net/client/HttpBridgeClient.h"
#include "net/client/SignalWithin.h"
#include "net/nostr/Nip98.h"

#include <QCoroNetworkReply>
#include <QDateTime>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace buzz::cli {

namespace {

constexpr qsizetype kDescribeChars = 300;

QString shortened(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > kDescribeChars)
        text = text.left(kDescribeChars) + QStringLiteral("…");
    return text;
}

// An answer cut off at the client's cap (HttpBridgeClient's, the same words): reported as no
// answer.
ProbeAnswer tooLarge()
{
    ProbeAnswer answer;
    answer.networkError = QStringLiteral("the relay's answer passed %1 MiB, the client's limit, "
                                         "and was cut off")
                              .arg(client::HttpBridgeClient::kMaxAnswerBytes >> 20);
    return answer;
}

} // namespace

QString ProbeAnswer::errorText() const
{
    const nlohmann::json parsed = json();
    if (parsed.is_object()) {
        const auto error = parsed.find("error");
        if (error != parsed.end() && error->is_string())
            return QString::fromStdString(error->get<std::string>());
    }
    return shortened(QString::fromUtf8(body));
}

nlohmann::json ProbeAnswer::json() const
{
    return nlohmann::json::parse(body.constBegin(), body.constEnd(), nullptr, false);
}

bool ProbeAnswer::accepted() const
{
    const nlohmann::json answer = json();
    return status == 200 && answer.is_object() && answer.value("accepted", false);
}

QString ProbeAnswer::describe() const
{
    if (status == 0)
        return QStringLiteral("no answer: ") + networkError;
    return shortened(QString::number(status) + QLatin1Char(' ') + QString::fromUtf8(body));
}

RelayProbe::RelayProbe(QUrl httpBase, std::shared_ptr<const nostr::SecretKey> key,
                       std::chrono::milliseconds timeout)
    : m_httpBase(std::move(httpBase))
    , m_key(std::move(key))
    , m_timeout(timeout)
{
    // A redirect is an answer to report (a sign-in page in front of the relay), not to follow.
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

QString RelayProbe::urlFor(const QString &path) const
{
    QUrl url = m_httpBase;
    url.setPath(url.path() + path);
    return url.toString();
}

std::int64_t RelayProbe::now()
{
    return QDateTime::currentSecsSinceEpoch();
}

std::string RelayProbe::authorization(const QString &url, const QString &method,
                                      const QByteArray &body, std::int64_t createdAt) const
{
    return nostr::nip98::buildAuthorizationHeader(
        *m_key, url.toStdString(), method.toStdString(),
        std::string_view(body.constData(), static_cast<std::size_t>(body.size())), createdAt);
}

QCoro::Task<ProbeAnswer> RelayProbe::get(QString path, QByteArray accept, QByteArray authorization)
{
    QNetworkRequest request(QUrl(urlFor(path)));
    request.setRawHeader("Accept", accept);
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    co_return co_await awaitAnswer(m_network.get(request));
}

QCoro::Task<ProbeAnswer> RelayProbe::post(QString path, QByteArray body, QByteArray authorization)
{
    QNetworkRequest request(QUrl(urlFor(path)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Accept", "application/json");
    request.setRawHeader("Authorization", authorization);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    co_return co_await awaitAnswer(m_network.post(request, body));
}

// One exchange, whatever its method: the answer capped as every client answer is, within the
// probe's timeout; the route header where the relay reports one.
QCoro::Task<ProbeAnswer> RelayProbe::awaitAnswer(QNetworkReply *started)
{
    std::unique_ptr<QNetworkReply, void (*)(QNetworkReply *)> reply(
        started, [](QNetworkReply *r) { r->deleteLater(); });
    client::CappedReply body(reply.get(), client::HttpBridgeClient::kMaxAnswerBytes);
    ProbeAnswer answer;
    if (!reply->isFinished()
        && !co_await client::signalWithin(reply.get(), &QNetworkReply::finished, m_timeout)) {
        reply->abort();
        answer.networkError = QStringLiteral("timed out after %1 ms").arg(m_timeout.count());
        co_return answer;
    }
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = body.take();
    if (body.tooLarge())
        co_return tooLarge();
    answer.route = QString::fromLatin1(reply->rawHeader("X-Buzz-Read-Route"));
    if (answer.status == 0)
        answer.networkError = reply->errorString();
    co_return answer;
}

QCoro::Task<ProbeAnswer> RelayProbe::postSigned(QString path, QByteArray body)
{
    const QByteArray header =
        QByteArray::fromStdString(authorization(urlFor(path), QStringLiteral("POST"), body, now()));
    co_return co_await post(path, body, header);
}

QCoro::Task<ProbeAnswer> RelayProbe::publish(const nostr::Event &event)
{
    co_return co_await postSigned(QStringLiteral("/events"),
                                  QByteArray::fromStdString(event.toJson()));
}

QCoro::Task<ProbeAnswer> RelayProbe::query(nlohmann::json filters)
{
    co_return co_await postSigned(QStringLiteral("/query"),
                                  QByteArray::fromStdString(filters.dump()));
}

nostr::Event RelayProbe::sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                              std::string content) const
{
    return m_key->signedEvent(kind, createdAt, std::move(tags), std::move(content));
}

} // namespace buzz::cli
