#include "net/client/HttpBridgeClient.h"

#include "net/client/CappedReply.h"
#include "net/client/EventVerifier.h"
#include "net/client/RequestLog.h"
#include "net/client/SignalWithin.h"
#include "net/client/Signer.h"
#include "net/nostr/Hex.h"
#include "net/nostr/Nip98.h"
#include "net/nostr/RelayUrl.h"

#include <QCoroNetworkReply>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcHttp, "buzz.client.http")

namespace buzz::client {

namespace {

const QByteArray kRouteHeader = QByteArrayLiteral("X-Buzz-Read-Route");

QString unreachable(const char *what)
{
    return QStringLiteral("relay unreachable: ") + QString::fromUtf8(what); // some carry an em dash
}

bool looksLikeHtml(const QByteArray &body, const QString &contentType)
{
    if (contentType.contains(QLatin1String("text/html"), Qt::CaseInsensitive))
        return true;
    const QByteArray start = body.left(256).trimmed().toLower();
    return start.startsWith("<!doctype html") || start.startsWith("<html");
}

// Waits until the reply finishes (true) or `timeout` passes, then aborts it (false).
QCoro::Task<bool> finishWithin(QNetworkReply *reply, std::chrono::milliseconds timeout)
{
    if (reply->isFinished())
        co_return true;
    const bool finished = co_await signalWithin(reply, &QNetworkReply::finished, timeout);
    if (!finished)
        reply->abort();
    co_return finished;
}

RelayError networkFailure(QNetworkReply::NetworkError error, bool timedOut)
{
    using Kind = RelayError::Kind;
    if (timedOut || error == QNetworkReply::TimeoutError)
        return RelayError::make(Kind::Timeout, QStringLiteral("request timed out"),
                                unreachable("request timed out"));
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return RelayError::make(Kind::Network, QStringLiteral("could not connect to relay"),
                                unreachable("could not connect to relay"));
    case QNetworkReply::HostNotFoundError:
        return RelayError::make(Kind::Network, QStringLiteral("relay host not found"),
                                unreachable("relay host not found"));
    default:
        return RelayError::make(Kind::Network, QStringLiteral("network error"),
                                unreachable("network error"));
    }
}

bool anyStrong(const std::vector<nostr::Filter> &filters)
{
    for (const nostr::Filter &filter : filters) {
        if (filter.isStrong())
            return true;
    }
    return false;
}

QByteArray filtersJson(const std::vector<nostr::Filter> &filters)
{
    nlohmann::json array = nlohmann::json::array();
    for (const nostr::Filter &filter : filters)
        array.push_back(filter.toJsonValue());
    return QByteArray::fromStdString(array.dump());
}

RelayError malformed(const char *what)
{
    return RelayError::make(RelayError::Kind::Network, QString::fromLatin1(what),
                            unreachable("response was not valid JSON"));
}

} // namespace

HttpBridgeClient::HttpBridgeClient(const QUrl &relayUrl, Signer *signer, RequestLog *log,
                                   QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
    , m_signer(signer)
    , m_log(log)
{
    m_httpBase = QUrl(
        QString::fromStdString(nostr::httpBaseFromRelayUrl(relayUrl.toString().toStdString())));
    // Redirects are answers to classify (Cloudflare Access / captive portals), not to follow.
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

HttpBridgeClient::~HttpBridgeClient() = default;

RelayError HttpBridgeClient::classifyHttpFailure(int httpStatus, const QByteArray &body,
                                                 const QString &contentType,
                                                 const QString &location)
{
    using Kind = RelayError::Kind;
    if (httpStatus >= 300 && httpStatus < 400) {
        if (location.contains(QLatin1String("cloudflareaccess.com"), Qt::CaseInsensitive))
            return RelayError::make(Kind::Network, QStringLiteral("network sign-in required"),
                                    unreachable("network sign-in required (Cloudflare Access / "
                                                "VPN) — re-authenticate and reconnect"),
                                    httpStatus);
        return RelayError::make(
            Kind::Network, QStringLiteral("unexpected redirect"),
            unreachable("relay returned an unexpected HTML page (VPN or proxy sign-in?)"),
            httpStatus);
    }
    if (looksLikeHtml(body, contentType))
        return RelayError::make(
            Kind::Network, QStringLiteral("unexpected HTML page"),
            unreachable("relay returned an unexpected HTML page (VPN or proxy sign-in?)"),
            httpStatus);
    if (httpStatus >= 200 && httpStatus < 300)
        return malformed("response was not valid JSON");

    QString message;
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (document.isObject()) {
        const QJsonObject object = document.object();
        // The membership 403 carries a code in "error" and the sentence in "message".
        message = object.value(QLatin1String("message")).toString();
        if (message.isEmpty())
            message = object.value(QLatin1String("error")).toString();
    }
    Kind kind = Kind::Internal;
    if (httpStatus == 400 || httpStatus == 413 || httpStatus == 422)
        kind = Kind::BadRequest;
    else if (httpStatus == 401 || httpStatus == 403)
        kind = Kind::Auth;
    else if (httpStatus == 404)
        kind = Kind::NotFound;
    else if (httpStatus == 409)
        kind = Kind::Conflict;
    else if (httpStatus == 408 || httpStatus == 429 || httpStatus == 502 || httpStatus == 503
             || httpStatus == 504)
        kind = Kind::Retryable;
    if (kind != Kind::Conflict && message.contains(QLatin1String("conflict:")))
        kind = Kind::Conflict;
    // Qt re-sends a request by itself when a connection drops before the answer (even a POST,
    // with the same NIP-98 header). A "replay detected" therefore means an earlier copy of this
    // very request reached the relay and its answer was lost: the outcome is unknown, not an
    // authentication failure.
    if (httpStatus == 401 && message.contains(QLatin1String("replay detected")))
        return RelayError::make(Kind::Network, message,
                                unreachable("network error (the relay already had "
                                            "this request; its answer was lost)"),
                                httpStatus);
    // Non-JSON bodies are never shown: they may be proxy pages or contain URLs.
    const QString detail = message.isEmpty()
        ? QStringLiteral("relay returned %1").arg(httpStatus)
        : QStringLiteral("relay returned %1: %2").arg(httpStatus).arg(message);
    return RelayError::make(kind, message.isEmpty() ? detail : message, detail, httpStatus);
}

QCoro::Task<Result<HttpBridgeClient::RawResponse>>
HttpBridgeClient::post(const QString &path, const QByteArray &body, const RequestOptions &options,
                       bool strong, QString logDetail)
{
    co_return co_await exchange(path, body, options, strong, std::move(logDetail), nullptr);
}

QCoro::Task<Result<HttpBridgeClient::RawResponse>>
HttpBridgeClient::exchange(QString path, QByteArray body, RequestOptions options, bool strong,
                           QString logDetail, AnswerCheck check)
{
    RequestLogEntry entry;
    entry.startedAt = QDateTime::currentDateTimeUtc();
    entry.caller = options.caller;
    entry.method = QStringLiteral("POST ") + path;
    entry.strong = strong;
    entry.read = path != QLatin1String("/events");
    entry.detail = std::move(logDetail);
    if (m_log)
        m_log->begin(entry); // shown at once: a timeout otherwise appears only 10 s later
    QElapsedTimer clock;
    clock.start();

    auto finish = [&](Result<RawResponse> result) {
        entry.latencyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        if (result) {
            entry.status = QStringLiteral("ok");
            entry.httpStatus = result->httpStatus;
            entry.route = result->route;
        } else {
            entry.status = result.error().kindName();
            entry.errorDetail = result.error().detail;
            if (entry.httpStatus == 0)
                entry.httpStatus = result.error().httpStatus;
        }
        if (m_log)
            m_log->append(entry);
        if (!result && result.error().outcomeUnknown())
            emit requestUnanswered();
        return result;
    };

    const auto key = m_signer ? m_signer->key() : nullptr;
    if (!key) {
        co_return finish(fail(
            RelayError::make(RelayError::Kind::Auth, QStringLiteral("no identity configured"),
                             QStringLiteral("no identity configured: set a private key first"))));
    }

    QUrl url = m_httpBase;
    url.setPath(url.path() + path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setRawHeader("Accept", "application/json");
    const std::string authorization = nostr::nip98::buildAuthorizationHeader(
        *key, url.toString().toStdString(), "POST", std::string_view(body.constData(), body.size()),
        QDateTime::currentSecsSinceEpoch());
    request.setRawHeader("Authorization", QByteArray::fromStdString(authorization));
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);

    std::unique_ptr<QNetworkReply, void (*)(QNetworkReply *)> reply(
        m_network->post(request, body), [](QNetworkReply *r) { r->deleteLater(); });
    // Cut off while it streams once it passes the cap: never buffered whole first.
    CappedReply answerBody(reply.get(), kMaxAnswerBytes); // destroyed before the reply
    const bool timedOut = !co_await finishWithin(reply.get(), options.timeout);

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QByteArray responseBody = answerBody.take();
    if (answerBody.tooLarge()) {
        entry.httpStatus = status;
        co_return finish(fail(RelayError::make(
            RelayError::Kind::Internal, QStringLiteral("relay answer too large"),
            QStringLiteral("the relay's answer passed %1 MiB, the client's limit, and was cut "
                           "off (narrow the request)")
                .arg(kMaxAnswerBytes >> 20),
            status)));
    }
    const QString route = QString::fromLatin1(reply->rawHeader(kRouteHeader));
    entry.route = route;
    entry.httpStatus = status;
    if (timedOut || (reply->error() != QNetworkReply::NoError && status == 0)) {
        qCDebug(lcHttp) << "request failed" << path << options.caller << reply->error();
        co_return finish(fail(networkFailure(reply->error(), timedOut)));
    }
    const QString contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    if (status < 200 || status >= 300 || looksLikeHtml(responseBody, contentType)) {
        co_return finish(fail(classifyHttpFailure(
            status, responseBody, contentType, QString::fromUtf8(reply->rawHeader("Location")))));
    }
    RawResponse answer {status, responseBody, route};
    if (check) {
        if (auto problem = check(answer, entry))
            co_return finish(fail(*problem));
    }
    co_return finish(std::move(answer));
}

QCoro::Task<Result<PublishResponse>> HttpBridgeClient::publish(const nostr::Event &event,
                                                               RequestOptions options)
{
    const QByteArray body = QByteArray::fromStdString(event.toJson());
    // The detail view names the event, never its content (a canvas is the user's text).
    const QString detail = QStringLiteral("event %1 kind %2, tags %3, content %4 bytes")
                               .arg(QString::fromStdString(event.id))
                               .arg(event.kind)
                               .arg(QString::fromStdString(nlohmann::json(event.tags).dump()))
                               .arg(event.content.size());
    auto raw = co_await post(QStringLiteral("/events"), body, options, false, detail);
    if (!raw)
        co_return fail(raw.error());
    const QJsonDocument document = QJsonDocument::fromJson(raw->body);
    if (!document.isObject())
        co_return fail(malformed("POST /events answer is not an object"));
    const QJsonObject object = document.object();
    PublishResponse response;
    response.eventId = object.value(QLatin1String("event_id")).toString();
    response.accepted = object.value(QLatin1String("accepted")).toBool();
    response.message = object.value(QLatin1String("message")).toString();
    response.route = raw->route;
    co_return response;
}

QCoro::Task<Result<QueryResponse>>
HttpBridgeClient::query(const std::vector<nostr::Filter> &filters, RequestOptions options)
{
    const QByteArray body = filtersJson(filters);
    QueryResponse response;
    // Parsed and verified before the request is logged: its row says how many were dropped.
    // The filters are copied: the check runs after the caller's expression was suspended.
    AnswerCheck check = [&response,
                         asked = filters](const RawResponse &answer,
                                          RequestLogEntry &entry) -> std::optional<RelayError> {
        nlohmann::json array =
            nlohmann::json::parse(answer.body.constBegin(), answer.body.constEnd(), nullptr, false);
        if (!array.is_array())
            return malformed("POST /query answer is not an array");
        DroppedEvents dropped;
        response.events.reserve(array.size());
        for (const nlohmann::json &item : array) {
            auto event = nostr::Event::fromJson(item);
            if (!event) {
                qCWarning(lcHttp) << "dropping a malformed event from the relay:"
                                  << QString::fromStdString(event.error());
                ++dropped.count;
                if (dropped.firstReason.isEmpty())
                    dropped.firstReason = QString::fromStdString(event.error());
                continue;
            }
            if (auto problem = EventVerifier::problem(*event, asked)) {
                dropped.add(*event, *problem);
                continue;
            }
            response.events.push_back(std::move(event).value());
        }
        if (dropped.count > 0) {
            qCWarning(lcHttp) << "dropped" << dropped.count
                              << "events of a /query answer:" << dropped.firstReason;
            entry.dropped = dropped.count;
            entry.droppedReason = dropped.firstReason;
        }
        response.dropped = dropped.count;
        return std::nullopt;
    };
    auto raw = co_await exchange(QStringLiteral("/query"), body, options, anyStrong(filters),
                                 QString::fromUtf8(body), std::move(check));
    if (!raw)
        co_return fail(raw.error());
    response.route = raw->route;
    co_return response;
}

QCoro::Task<Result<CountResponse>>
HttpBridgeClient::count(const std::vector<nostr::Filter> &filters, RequestOptions options)
{
    const QByteArray body = filtersJson(filters);
    auto raw = co_await post(QStringLiteral("/count"), body, options, anyStrong(filters),
                             QString::fromUtf8(body));
    if (!raw)
        co_return fail(raw.error());
    const QJsonDocument document = QJsonDocument::fromJson(raw->body);
    if (!document.isObject() || !document.object().value(QLatin1String("count")).isDouble())
        co_return fail(malformed("POST /count answer has no count"));
    co_return CountResponse {
        static_cast<qint64>(document.object().value(QLatin1String("count")).toDouble()),
        raw->route};
}

QCoro::Task<Result<QString>> HttpBridgeClient::relayPublicKey(RequestOptions options)
{
    RequestLogEntry entry;
    entry.startedAt = QDateTime::currentDateTimeUtc();
    entry.caller = options.caller;
    entry.method = QStringLiteral("GET /");
    entry.detail = QStringLiteral("NIP-11 relay information");
    QElapsedTimer clock;
    clock.start();
    QNetworkRequest request(m_httpBase);
    request.setRawHeader("Accept", "application/nostr+json");
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    std::unique_ptr<QNetworkReply, void (*)(QNetworkReply *)> reply(
        m_network->get(request), [](QNetworkReply *r) { r->deleteLater(); });
    CappedReply answerBody(reply.get(), qint64(1) << 20); // a document of a few hundred bytes
    const bool finished = co_await finishWithin(reply.get(), options.timeout);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = answerBody.take();
    entry.httpStatus = status;
    entry.latencyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    Result<QString> result = QString();
    if (!finished || status == 0) {
        result = fail(networkFailure(reply->error(), !finished));
    } else if (status < 200 || status >= 300) {
        result = fail(classifyHttpFailure(status, body, QString(), QString()));
    } else {
        const auto document =
            nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
        const auto self = document.is_object() ? document.find("self") : document.end();
        if (self != document.end() && self->is_string()
            && nostr::isLowerHex(self->get<std::string>(), 64))
            result = QString::fromStdString(self->get<std::string>());
    }
    entry.status = result ? QStringLiteral("ok") : result.error().kindName();
    if (m_log)
        m_log->append(entry);
    co_return result;
}

} // namespace buzz::client
