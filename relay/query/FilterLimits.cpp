#include "relay/query/FilterLimits.h"

namespace buzz::relay::query {

namespace {

std::optional<std::string> tooMany(const std::string &field, std::size_t count)
{
    if (count <= FilterLimits::kMaxValuesPerField)
        return std::nullopt;
    return "invalid: filter " + field + " has " + std::to_string(count) + " values, maximum is "
        + std::to_string(FilterLimits::kMaxValuesPerField);
}

} // namespace

std::optional<std::string> FilterLimits::check(const std::vector<nostr::Filter> &filters)
{
    for (const auto &filter : filters) {
        if (auto refused = tooMany("ids", filter.ids ? filter.ids->size() : 0))
            return refused;
        if (auto refused = tooMany("authors", filter.authors ? filter.authors->size() : 0))
            return refused;
        if (auto refused = tooMany("kinds", filter.kinds ? filter.kinds->size() : 0))
            return refused;
        for (const auto &[name, values] : filter.tags) {
            if (auto refused = tooMany(std::string("#") + name, values.size()))
                return refused;
        }
    }
    return std::nullopt;
}

} // namespace buzz::relay::query
