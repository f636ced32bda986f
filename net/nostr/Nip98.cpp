#include "net/nostr/Nip98.h"

#include "net/nostr/EventParser.h"
#include "net/nostr/RelayUrl.h"
#include "net/nostr/Sha256.h"

#include <QByteArray>
#include <QUuid>

#include <algorithm>
#include <cstdlib>

namespace buzz::nostr::nip98 {

namespace {

constexpr std::string_view kScheme = "Nostr ";

std::string failure(std::string_view detail)
{
    return "NIP-98: NIP-98 HTTP Auth verification failed: " + std::string(detail);
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        const auto lower = [](char c) {
            return c >= 'A' && c <= 'Z' ? char(c + 32) : c;
        };
        return lower(x) == lower(y);
    });
}

} // namespace

Event buildHttpAuthEvent(const SecretKey &key, std::string_view url, std::string_view method,
                         std::optional<std::string_view> body, std::int64_t now)
{
    Tags tags;
    tags.reserve(4);
    tags.push_back({"u", std::string(url)});
    tags.push_back({"method", std::string(method)});
    if (body)
        tags.push_back({"payload", sha256Hex(*body)});
    // A fresh nonce gives identical requests in the same second distinct ids (replay window).
    tags.push_back({"nonce", QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString()});
    return key.signedEvent(kHttpAuthKind, now, std::move(tags));
}

std::string buildAuthorizationHeader(const SecretKey &key, std::string_view url,
                                     std::string_view method, std::optional<std::string_view> body,
                                     std::int64_t now)
{
    const std::string json = buildHttpAuthEvent(key, url, method, body, now).toJson();
    const QByteArray encoded =
        QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())).toBase64();
    return std::string(kScheme) + encoded.toStdString();
}

Expected<Event> verifyAuthorizationHeader(std::string_view headerValue,
                                          std::string_view expectedUrl, std::string_view method,
                                          std::string_view body, std::int64_t now)
{
    if (!headerValue.starts_with(kScheme))
        return Unexpected(std::string("missing Nostr auth"));
    std::string_view encoded = headerValue.substr(kScheme.size());
    while (!encoded.empty() && (encoded.front() == ' ' || encoded.front() == '\t'))
        encoded.remove_prefix(1);
    while (!encoded.empty() && (encoded.back() == ' ' || encoded.back() == '\t'))
        encoded.remove_suffix(1);

    const auto decoded = QByteArray::fromBase64Encoding(
        QByteArray::fromRawData(encoded.data(), static_cast<qsizetype>(encoded.size())),
        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || encoded.empty())
        return Unexpected(std::string("invalid base64 in Nostr auth"));
    const std::string_view json(decoded.decoded.constData(),
                                static_cast<std::size_t>(decoded.decoded.size()));
    if (!detail::isValidUtf8(json))
        return Unexpected(std::string("invalid UTF-8 in Nostr auth"));

    Expected<Event> parsed = Event::fromJson(json);
    if (!parsed)
        return Unexpected(std::string("invalid NIP-98 event JSON"));
    const Event &event = parsed.value();

    if (event.kind != kHttpAuthKind)
        return Unexpected(failure("expected kind " + std::to_string(kHttpAuthKind) + ", got "
                                  + std::to_string(event.kind)));
    if (event.verificationError())
        return Unexpected(failure("invalid Schnorr signature"));
    const std::int64_t delta = std::llabs(now - event.createdAt);
    if (delta > kTimestampToleranceSecs)
        return Unexpected(
            failure("event timestamp outside ±60s window (delta: " + std::to_string(delta) + "s)"));

    const std::string *url = event.tagValue("u");
    if (!url)
        return Unexpected(failure("missing `u` tag"));
    if (normalizeRelayUrl(*url) != normalizeRelayUrl(expectedUrl))
        return Unexpected(failure("URL mismatch: event has `" + *url + "`, expected `"
                                  + std::string(expectedUrl) + "`"));

    const std::string *signedMethod = event.tagValue("method");
    if (!signedMethod)
        return Unexpected(failure("missing `method` tag"));
    if (!equalsIgnoringCase(*signedMethod, method))
        return Unexpected(failure("method mismatch: event has `" + *signedMethod + "`, expected `"
                                  + std::string(method) + "`"));

    if (const std::string *payload = event.tagValue("payload")) {
        if (!equalsIgnoringCase(*payload, sha256Hex(body)))
            return Unexpected(
                failure("payload tag SHA-256 mismatch: request body does not match signed hash"));
    }
    return parsed;
}

} // namespace buzz::nostr::nip98
