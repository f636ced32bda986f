#include "relay/auth/HttpAuthenticator.h"

#include "net/nostr/Hex.h"
#include "net/nostr/Nip98.h"
#include "net/nostr/RelayUrl.h"

#include <QLoggingCategory>

#include <array>

Q_LOGGING_CATEGORY(lcRelayAuth, "buzz.relay.auth")

namespace buzz::relay {

namespace {

bool startsWithNostrScheme(std::string_view header)
{
    constexpr std::string_view scheme = "Nostr ";
    return header.size() >= scheme.size() && header.substr(0, scheme.size()) == scheme;
}

} // namespace

HttpAuthenticator::HttpAuthenticator(Options options)
    : m_options(std::move(options))
    , m_httpBase(nostr::httpBaseFromRelayUrl(m_options.relayUrl))
    , m_replays(kReplayMemorySecs)
{ }

std::string HttpAuthenticator::expectedUrl(std::string_view host, std::string_view path) const
{
    if (host.empty())
        return m_httpBase + std::string(path);
    const std::string scheme = m_httpBase.rfind("https://", 0) == 0 ? "https://" : "http://";
    return scheme + nostr::normalizeHost(host) + std::string(path);
}

Expected<std::string, HttpAuthFailure> HttpAuthenticator::authenticate(const Request &request)
{
    // The dev header only applies when the client sent no Nostr authorization at all, as upstream.
    if (m_options.acceptDevPubkeyHeader && !startsWithNostrScheme(request.authorization)
        && !request.devPubkey.empty()) {
        std::array<std::uint8_t, 32> key {};
        if (!nostr::fromHex(request.devPubkey, key.data(), key.size()))
            return Unexpected(HttpAuthFailure {401, "invalid X-Pubkey hex"});
        return nostr::toHex(key.data(), key.size());
    }

    const std::int64_t now = m_options.clock();
    auto verified = nostr::nip98::verifyAuthorizationHeader(request.authorization,
                                                            expectedUrl(request.host, request.path),
                                                            request.method, request.body, now);
    if (!verified) {
        qCDebug(lcRelayAuth) << "NIP-98 refused:" << QString::fromStdString(verified.error());
        return Unexpected(HttpAuthFailure {401, verified.error()});
    }
    if (!m_replays.remember(verified->id, now))
        return Unexpected(HttpAuthFailure {401, "NIP-98: replay detected"});
    // Another process of the deployment may have taken it. When the shared store cannot answer
    // (the database is failing over), this process's own check stands: HTTP keeps being served.
    if (m_options.shared) {
        const std::optional<bool> fresh =
            m_options.shared->remember(verified->id, now, kReplayMemorySecs);
        if (fresh && !*fresh)
            return Unexpected(HttpAuthFailure {401, "NIP-98: replay detected"});
    }
    return verified->pubkey;
}

} // namespace buzz::relay
