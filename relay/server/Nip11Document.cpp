#include "relay/server/Nip11Document.h"

#include <nlohmann/json.hpp>

namespace buzz::relay {

std::string nip11DocumentJson(const std::string &relayPublicKeyHex, bool requiresRelayMembership)
{
    // ordered_json keeps the upstream field order, so byte comparisons with the real relay hold.
    nlohmann::ordered_json limitation;
    limitation["max_message_length"] = 65536;
    limitation["max_subscriptions"] = 1024;
    limitation["max_filters"] = 10;
    limitation["max_limit"] = 10000;
    limitation["max_subid_length"] = 256;
    limitation["min_pow_difficulty"] = nullptr;
    limitation["auth_required"] = true;
    limitation["payment_required"] = false;
    limitation["restricted_writes"] = true;

    nlohmann::ordered_json doc;
    doc["name"] = "Buzz Relay";
    doc["description"] = "Buzz — private team communication relay";
    doc["pubkey"] = nullptr;
    doc["contact"] = nullptr;
    // Upstream's list (1 … 50) plus what both relays implement and upstream leaves out: 9
    // (deletion), 45 (COUNT) and 98 (the bridge's HTTP auth), so a client or `relay check` can
    // tell from NIP-11 alone what to expect.
    doc["supported_nips"] = {1, 2, 9, 10, 11, 16, 17, 23, 25, 29, 33, 38, 42, 45, 50, 98};
    if (requiresRelayMembership && !relayPublicKeyHex.empty())
        doc["supported_nips"].push_back(43);
    doc["software"] = "https://github.com/block/buzz";
    doc["version"] = "0.1.0"; // the relay crate version upstream advertises, not the app's
    doc["limitation"] = std::move(limitation);
    doc["self"] = relayPublicKeyHex;
    return doc.dump();
}

} // namespace buzz::relay
