#pragma once

#include "net/nostr/Expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::nostr {

using Tag = std::vector<std::string>;
using Tags = std::vector<Tag>;

// A NIP-01 event. Hex fields are lower-case on the wire and are kept that way.
struct Event
{
    std::string id; // 64 lower-case hex: SHA-256 of canonical()
    std::string pubkey; // 64 lower-case hex, x-only key
    std::int64_t createdAt = 0;
    int kind = 0; // 0..65535
    Tags tags;
    std::string content;
    std::string sig; // 128 lower-case hex, BIP-340

    // Strict parse. Errors name the field, e.g. "id: must be 64 lower-case hex characters",
    // "kind: must be an integer in 0..65535", "tags: must be an array of arrays of strings".
    static Expected<Event> fromJson(std::string_view json);
    static Expected<Event> fromJson(const nlohmann::json &json);
    // Text overloads so a std::string or literal argument is not ambiguous (json converts from
    // both).
    static Expected<Event> fromJson(const std::string &json)
    {
        return fromJson(std::string_view(json));
    }
    static Expected<Event> fromJson(const char *json) { return fromJson(std::string_view(json)); }

    nlohmann::json toJsonValue() const;
    std::string toJson()
        const; // compact:
               // {"id":..,"pubkey":..,"created_at":..,"kind":..,"tags":..,"content":..,"sig":..}

    // [0,pubkey,created_at,kind,tags,content], byte-for-byte as NIP-01 and the real relay expect.
    std::string canonical() const;
    std::string computeId() const; // lower-case hex SHA-256 of canonical()

    // Empty when id and signature are both valid; otherwise the real relay's wording:
    // "invalid event id: computed <hex>, got <hex>" or "invalid schnorr signature".
    std::optional<std::string> verificationError() const;
    bool verify() const { return !verificationError(); }

    // The first value (element 1) of the first tag named `name`, or nullptr.
    const std::string *tagValue(std::string_view name) const;
    // Every element-1 value of tags named `name`, in order.
    std::vector<std::string> tagValues(std::string_view name) const;
    // Number of tags named `name`.
    int tagCount(std::string_view name) const;
};

// Kind classification helpers (buzz-core kind.rs).
bool isReplaceableKind(int kind); // 0, 3, 41, 10000..19999
bool isParameterizedReplaceableKind(int kind); // 30000..39999
bool isEphemeralKind(int kind); // 20000..29999

} // namespace buzz::nostr
