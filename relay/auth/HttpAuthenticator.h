#pragma once

#include "net/nostr/Expected.h"
#include "net/nostr/Nip98.h"
#include "relay/auth/ReplayCache.h"
#include "relay/model/SharedReplayCache.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace buzz::relay {

// Why an HTTP bridge request was refused before it reached the engine.
struct HttpAuthFailure
{
    int httpStatus = 401;
    std::string message; // the `error` value of the JSON body, word for word as the real relay
};

// NIP-98 for the HTTP bridge (docs/buzz-protocol.md §NIP-98, §Communities): verifies
// `Authorization: Nostr <base64>` against the server-computed URL — `https` when the configured
// relay URL is `wss`, else `http`, then the normalised tenant host the request was addressed to,
// then the path — and rejects a reused event id for longer than any accepted token stays inside the
// time window. Optionally accepts the unsigned dev header `X-Pubkey` when no Nostr header is
// present. Thread-safe.
class HttpAuthenticator
{
public:
    struct Options
    {
        std::string relayUrl; // its scheme picks http/https; its authority is the fallback host
        bool acceptDevPubkeyHeader = false;
        std::function<std::int64_t()> clock; // unix seconds
        // Ids every process of the deployment remembers, asked after this process's own cache;
        // null: this process only.
        std::shared_ptr<SharedReplayCache> shared;
    };

    // A token is inside the ±60 s window for at most 121 whole seconds (created_at − 60 through
    // created_at + 60, both inclusive); its id is remembered at least that long after first use,
    // so no accepted token can come back once forgotten. Upstream remembers 120 s, one second
    // short for a token signed 60 s ahead.
    static constexpr std::int64_t kReplayMemorySecs = 2 * nostr::nip98::kTimestampToleranceSecs + 1;

    explicit HttpAuthenticator(Options options);

    struct Request
    {
        std::string_view authorization; // raw header value, may be empty
        std::string_view devPubkey; // raw X-Pubkey value, may be empty
        std::string_view method; // "POST"
        std::string_view path; // "/events"
        std::string_view body;
        std::string_view host; // the Host header the request resolved its community by; empty =
                               // the configured relay URL's host
    };
    // The authenticated pubkey (64 lower-case hex) or the 401 to answer.
    Expected<std::string, HttpAuthFailure> authenticate(const Request &request);

    // What `u` must name for a request to `host` (a Host header value) and `path`.
    std::string expectedUrl(std::string_view host, std::string_view path) const;

private:
    Options m_options;
    std::string m_httpBase;
    ReplayCache m_replays;
};

} // namespace buzz::relay
