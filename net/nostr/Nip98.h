#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Expected.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace buzz::nostr::nip98 {

constexpr int kHttpAuthKind = kinds::kHttpAuth;
constexpr std::int64_t kTimestampToleranceSecs = 60;
constexpr std::int64_t kReplayWindowSecs = 120;

// Kind 27235 with tags in the desktop's order: u, method, payload (SHA-256 hex of body, when a body
// is given), nonce (fresh UUID v4). Content "".
Event buildHttpAuthEvent(const SecretKey &key, std::string_view url, std::string_view method,
                         std::optional<std::string_view> body, std::int64_t now);
// "Nostr <standard base64 of the event JSON>"
std::string buildAuthorizationHeader(const SecretKey &key, std::string_view url,
                                     std::string_view method, std::optional<std::string_view> body,
                                     std::int64_t now);

// Decodes and verifies an Authorization header value. On failure the error is the exact 401 body
// message of the real relay:
//   "missing Nostr auth" (header absent/not "Nostr "), "invalid base64 in Nostr auth",
//   "invalid UTF-8 in Nostr auth", "invalid NIP-98 event JSON",
//   "NIP-98: NIP-98 HTTP Auth verification failed: <detail>" with detail one of
//   "expected kind 27235, got N", "invalid Schnorr signature" (also for a bad id),
//   "event timestamp outside ±60s window (delta: Ns)", "missing `u` tag",
//   "URL mismatch: event has `…`, expected `…`", "missing `method` tag",
//   "method mismatch: event has `…`, expected `…`",
//   "payload tag SHA-256 mismatch: request body does not match signed hash".
// `expectedUrl` is the server-computed URL (relay URL, ws→http, + path); both sides are normalised.
// The replay check (120 s) is the caller's: it needs state.
Expected<Event> verifyAuthorizationHeader(std::string_view headerValue,
                                          std::string_view expectedUrl, std::string_view method,
                                          std::string_view body, std::int64_t now);

} // namespace buzz::nostr::nip98
