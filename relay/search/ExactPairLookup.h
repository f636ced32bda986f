#pragma once

#include "relay/search/EventPair.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::relay::search {

// The bounds of one exact-pair (or id) hydration batch, checked before any connection is taken;
// the lookup itself is the store's (store::ReadConnection::findPairs, ::findIds).
class ExactPairLookup
{
public:
    static constexpr std::size_t kMaxPairs = 500;

    // Why a batch is refused (empty = acceptable): more than kMaxPairs pairs, an id that is not
    // 64 lower-case hex, or a negative created_at.
    static std::optional<std::string> validate(std::span<const EventPair> pairs);
    static std::optional<std::string> validateIds(std::span<const std::string> ids);
    // The distinct pairs in first-occurrence order (duplicates never multiply results).
    static std::vector<EventPair> distinct(std::span<const EventPair> pairs);

    static bool isEventId(std::string_view id);
};

} // namespace buzz::relay::search
