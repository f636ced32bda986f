#pragma once

#include "net/nostr/Filter.h"

#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::query {

// Read gates that need no database: the p-gated and engram kinds (docs/buzz-protocol.md
// §Sensitive kinds) and the channel scope of a subscription (§Subscriptions there).
class AccessPolicy
{
public:
    static constexpr const char *kHttpPGate =
        "restricted: p-gated kinds require #p tag matching your pubkey";
    static constexpr const char *kWsPGate =
        "restricted: p-gated events require #p matching your pubkey";
    static constexpr const char *kEngramGate =
        "restricted: agent-engram reads require authors=[self] or #p=[self]";

    static bool pGateAllows(const nostr::Filter &filter, const std::string &viewer);
    static bool engramGateAllows(const nostr::Filter &filter, const std::string &viewer);

    // The single channel every filter pins with `#h`, or nullopt (a global subscription).
    static std::optional<std::string>
    subscriptionChannel(const std::vector<nostr::Filter> &filters);
};

} // namespace buzz::relay::query
