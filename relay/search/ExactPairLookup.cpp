#include "relay/search/ExactPairLookup.h"

#include <algorithm>
#include <unordered_set>

namespace buzz::relay::search {

namespace {
struct PairHash
{
    std::size_t operator()(const EventPair &pair) const noexcept
    {
        return std::hash<std::string>()(pair.id) ^ (std::hash<std::int64_t>()(pair.createdAt) << 1);
    }
};
} // namespace

bool ExactPairLookup::isEventId(std::string_view id)
{
    return id.size() == 64 && std::all_of(id.begin(), id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<std::string> ExactPairLookup::validate(std::span<const EventPair> pairs)
{
    if (pairs.size() > kMaxPairs)
        return "too many event pairs: " + std::to_string(pairs.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!isEventId(pairs[i].id))
            return "invalid event id at pair " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
        if (pairs[i].createdAt < 0)
            return "invalid created_at at pair " + std::to_string(i) + ": must not be negative";
    }
    return std::nullopt;
}

std::optional<std::string> ExactPairLookup::validateIds(std::span<const std::string> ids)
{
    if (ids.size() > kMaxPairs)
        return "too many event ids: " + std::to_string(ids.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!isEventId(ids[i]))
            return "invalid event id at position " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
    }
    return std::nullopt;
}

std::vector<EventPair> ExactPairLookup::distinct(std::span<const EventPair> pairs)
{
    std::vector<EventPair> out;
    out.reserve(pairs.size());
    std::unordered_set<EventPair, PairHash> seen;
    seen.reserve(pairs.size());
    for (const EventPair &pair : pairs) {
        if (seen.insert(pair).second)
            out.push_back(pair);
    }
    return out;
}

} // namespace buzz::relay::search
