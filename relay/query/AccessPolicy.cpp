#include "relay/query/AccessPolicy.h"

#include <algorithm>

namespace buzz::relay::query {

namespace {
constexpr int kPGatedKinds[] = {24200, 44100, 44101, 1059, 30622};

bool couldMatchKind(const nostr::Filter &filter, int kind)
{
    return !filter.kinds
        || std::find(filter.kinds->begin(), filter.kinds->end(), kind) != filter.kinds->end();
}

bool onlySelf(const std::vector<std::string> &values, const std::string &viewer)
{
    return !values.empty()
        && std::all_of(values.begin(), values.end(), [&](const auto &v) { return v == viewer; });
}

bool pTagIsSelf(const nostr::Filter &filter, const std::string &viewer)
{
    const auto it = filter.tags.find('p');
    return it != filter.tags.end() && onlySelf(it->second, viewer);
}
} // namespace

bool AccessPolicy::pGateAllows(const nostr::Filter &filter, const std::string &viewer)
{
    const bool gated = std::any_of(std::begin(kPGatedKinds), std::end(kPGatedKinds),
                                   [&](int kind) { return couldMatchKind(filter, kind); });
    if (!gated || pTagIsSelf(filter, viewer))
        return true;
    const bool explicit30622 = filter.kinds
        && std::find(filter.kinds->begin(), filter.kinds->end(), 30622) != filter.kinds->end();
    return filter.ids.has_value() && !explicit30622;
}

bool AccessPolicy::engramGateAllows(const nostr::Filter &filter, const std::string &viewer)
{
    if (!couldMatchKind(filter, 30174) || filter.ids)
        return true;
    return (filter.authors && onlySelf(*filter.authors, viewer)) || pTagIsSelf(filter, viewer);
}

std::optional<std::string>
AccessPolicy::subscriptionChannel(const std::vector<nostr::Filter> &filters)
{
    std::optional<std::string> channel;
    for (const auto &filter : filters) {
        const auto single = filter.singleChannel();
        if (!single || (channel && *channel != *single))
            return std::nullopt;
        channel = single;
    }
    return channel;
}

} // namespace buzz::relay::query
