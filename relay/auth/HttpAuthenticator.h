#pragma once

#include "net/nostr/Expected.h"
#include "relay/auth/ReplayCache.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace buzz::relay {

// Why an HTTP bridge request was refused before it reached the engine.
struct HttpAuthFailure
{
    int httpStatus = 401;
    std::string message; // the `error` value of the JSON body, word for word as the real relay
};

// NIP-98 for the HTTP bridge (reference §2.2): verifies `Authorization: Nostr <base64>` against the
// server-computed URL (relay URL ws→http + path), then rejects a reused event id for 120 s.
// Optionally accepts the unsigned dev header `X-Pubkey` when no Nostr header is present.
// Thread-safe.
class HttpAuthenticator
{
public:
    struct Options
    {
        std::string relayUrl; // what NIP-98 `u` must name after ws→http (+ path)
        bool acceptDevPubkeyHeader = false;
        std::function<std::int64_t()> clock; // unix seconds
    };

    explicit HttpAuthenticator(Options options);

    struct Request
    {
        std::string_view authorization; // raw header value, may be empty
        std::string_view devPubkey; // raw X-Pubkey value, may be empty
        std::string_view method; // "POST"
        std::string_view path; // "/events"
        std::string_view body;
    };
    // The authenticated pubkey (64 lower-case hex) or the 401 to answer.
    Expected<std::string, HttpAuthFailure> authenticate(const Request &request);

    std::string expectedUrl(std::string_view path) const;

private:
    Options m_options;
    std::string m_httpBase;
    ReplayCache m_replays;
};

} // namespace buzz::relay
