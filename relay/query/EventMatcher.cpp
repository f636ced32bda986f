#include "relay/query/EventMatcher.h"

#include <algorithm>

namespace buzz::relay::query {

namespace {
template<class T>
bool contains(const std::vector<T> &values, const T &value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

bool tagMatches(const nostr::Event &event, char name, const std::vector<std::string> &values)
{
    for (const auto &tag : event.tags) {
        if (tag.size() >= 2 && tag[0].size() == 1 && tag[0][0] == name && contains(values, tag[1]))
            return true;
    }
    return false;
}

bool hasTag(const nostr::Event &event, char name)
{
    return std::any_of(event.tags.begin(), event.tags.end(), [name](const auto &tag) {
        return tag.size() >= 1 && tag[0].size() == 1 && tag[0][0] == name;
    });
}
} // namespace

bool EventMatcher::matches(const nostr::Filter &filter, const StoredEvent &stored)
{
    const nostr::Event &event = stored.event;
    if (filter.ids && !contains(*filter.ids, event.id))
        return false;
    if (filter.authors && !contains(*filter.authors, event.pubkey))
        return false;
    if (filter.kinds && !contains(*filter.kinds, event.kind))
        return false;
    if (filter.since && event.createdAt < *filter.since)
        return false;
    if (filter.until && event.createdAt > *filter.until)
        return false;
    for (const auto &[name, values] : filter.tags) {
        if (name == 'h' && !hasTag(event, 'h')) {
            if (!stored.channel || !contains(values, *stored.channel))
                return false;
            continue;
        }
        if (!tagMatches(event, name, values))
            return false;
    }
    return true;
}

} // namespace buzz::relay::query
