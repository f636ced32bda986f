#include "net/nostr/Nip42.h"

#include "net/nostr/RelayUrl.h"

#include <cstdlib>

namespace buzz::nostr::nip42 {

Event buildAuthEvent(const SecretKey &key, std::string_view relayUrl, std::string_view challenge,
                     std::int64_t now)
{
    return key.signedEvent(
        kAuthKind, now, {{"relay", std::string(relayUrl)}, {"challenge", std::string(challenge)}});
}

std::optional<std::string> verifyAuthEvent(const Event &event, std::string_view expectedChallenge,
                                           std::string_view relayUrl, std::int64_t now)
{
    if (event.kind != kAuthKind)
        return "wrong kind: expected " + std::to_string(kAuthKind) + ", got "
            + std::to_string(event.kind);
    if (std::optional<std::string> error = event.verificationError())
        return error;

    const std::string *challenge = event.tagValue("challenge");
    if (!challenge)
        return std::string("missing challenge tag");
    if (*challenge != expectedChallenge)
        return std::string("challenge mismatch");

    const std::string *relay = event.tagValue("relay");
    if (!relay)
        return std::string("missing relay tag");
    if (normalizeRelayUrl(*relay) != normalizeRelayUrl(relayUrl))
        return "relay URL mismatch: event has `" + *relay + "`, expected `" + std::string(relayUrl)
            + "`";

    const std::int64_t delta = std::llabs(now - event.createdAt);
    if (delta > kTimestampToleranceSecs)
        return "timestamp outside ±60s window (delta: " + std::to_string(delta) + "s)";
    return std::nullopt;
}

} // namespace buzz::nostr::nip42
