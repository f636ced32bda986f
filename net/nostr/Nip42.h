#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace buzz::nostr::nip42 {

constexpr int kAuthKind = kinds::kAuth;
constexpr std::int64_t kTimestampToleranceSecs = 60;

// Kind 22242, tags [["relay",url],["challenge",challenge]], empty content, signed.
Event buildAuthEvent(const SecretKey &key, std::string_view relayUrl, std::string_view challenge,
                     std::int64_t now);

// Empty when valid. Otherwise a precise internal reason (for logs and tests); the relay answers
// every such failure with "auth-required: verification failed". Reasons: "wrong kind: expected
// 22242, got N", "invalid event id: …", "invalid schnorr signature", "challenge mismatch", "missing
// challenge tag", "missing relay tag", "relay URL mismatch: event has `…`, expected `…`",
// "timestamp outside ±60s window (delta: Ns)".
std::optional<std::string> verifyAuthEvent(const Event &event, std::string_view expectedChallenge,
                                           std::string_view relayUrl, std::int64_t now);

} // namespace buzz::nostr::nip42
