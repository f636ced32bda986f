#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::nostr {

// A NIP-01 filter plus the Buzz extension fields the relay reads from the raw JSON.
// Absent fields are std::nullopt; an empty list is kept as an empty list (kinds:[] matches
// nothing).
struct Filter
{
    std::optional<std::vector<std::string>> ids; // 64 lower-case hex each
    std::optional<std::vector<std::string>> authors; // 64 lower-case hex each
    std::optional<std::vector<int>> kinds;
    std::map<char, std::vector<std::string>> tags; // "#h" → tags['h']
    std::optional<std::int64_t> since; // inclusive
    std::optional<std::int64_t> until; // inclusive
    std::optional<int> limit;
    std::optional<std::string> search; // NIP-50

    // Buzz extensions.
    enum class Consistency { Default, Strong };
    Consistency consistency = Consistency::Default; // "consistency":"strong" → writer
    std::optional<std::string> beforeId; // keyset cursor (DESC pages), requires until
    std::optional<std::string> afterId; // forward keyset cursor (ASC thread pages), requires since
    std::optional<int> depthLimit; // thread mode with exactly one #e

    // Strict parse of one filter object. Errors are the relay's wording where it has one:
    // "before_id requires until to be set", "before_id must be a 64-character hex event id",
    // "after_id requires since to be set", "consistency must be \"strong\" when present (got …)",
    // otherwise "<field>: <what is wrong>". Unknown keys are ignored (as rust-nostr does), except
    // "#x" keys whose value is not an array of strings.
    static Expected<Filter> fromJson(const nlohmann::json &json);
    static Expected<Filter> fromJson(std::string_view json);
    // Text overloads so a std::string or literal argument is not ambiguous (json converts from
    // both).
    static Expected<Filter> fromJson(const std::string &json)
    {
        return fromJson(std::string_view(json));
    }
    static Expected<Filter> fromJson(const char *json) { return fromJson(std::string_view(json)); }
    // A JSON array of filter objects (the /query and /count body). Error names the index.
    static Expected<std::vector<Filter>> listFromJson(std::string_view json);

    nlohmann::json toJsonValue() const;
    std::string toJson() const;

    // NIP-01 match: every present condition holds (ids/authors exact, kinds, each #x intersects the
    // event's x-tag values, since <= created_at <= until). `search`, `limit` and the extensions are
    // not match conditions.
    bool matches(const Event &event) const;

    bool isStrong() const { return consistency == Consistency::Strong; }
    // The single value of #h when the filter names exactly one channel (live fan-out scope).
    std::optional<std::string> singleChannel() const;
};

} // namespace buzz::nostr
