#include "relay/server/Subscription.h"

#include <algorithm>

namespace buzz::relay {

Subscription::Subscription(std::string id, std::vector<nostr::Filter> filters,
                           std::uint64_t generation)
    : m_id(std::move(id))
    , m_filters(std::move(filters))
    , m_generation(generation)
{
    std::size_t searchFilters = 0;
    for (const auto &filter : m_filters) {
        if (filter.search)
            ++searchFilters;
        nostr::Filter withoutH = filter;
        withoutH.tags.erase('h');
        m_filtersWithoutH.push_back(std::move(withoutH));
    }
    m_isSearch = searchFilters > 0;
    m_mixesSearch = searchFilters > 0 && searchFilters < m_filters.size();

    std::optional<std::string> scope;
    bool scoped = !m_filters.empty();
    for (const auto &filter : m_filters) {
        const auto channel = filter.singleChannel();
        if (!channel || (scope && *scope != *channel)) {
            scoped = false;
            break;
        }
        scope = channel;
    }
    if (scoped)
        m_channelScope = std::move(scope);
}

bool Subscription::filterMatches(std::size_t index, const StoredEvent &stored) const
{
    const nostr::Filter &filter = m_filters[index];
    const auto hValues = filter.tags.find('h');
    if (hValues == filter.tags.end() || stored.event.tagValue("h") || !stored.channel)
        return filter.matches(stored.event);
    const auto &allowed = hValues->second;
    if (std::find(allowed.begin(), allowed.end(), *stored.channel) == allowed.end())
        return false;
    return m_filtersWithoutH[index].matches(stored.event);
}

bool Subscription::acceptsLive(const StoredEvent &stored) const
{
    if (m_isSearch)
        return false;
    if (stored.channel && (!m_channelScope || *m_channelScope != *stored.channel))
        return false;
    for (std::size_t i = 0; i < m_filters.size(); ++i) {
        if (filterMatches(i, stored))
            return true;
    }
    return false;
}

void Subscription::bufferWhileLoading(std::shared_ptr<const StoredEvent> stored)
{
    m_buffered.push_back(std::move(stored));
}

std::vector<std::shared_ptr<const StoredEvent>>
Subscription::finishHistory(const std::unordered_set<std::string> &sentIds)
{
    m_loadingHistory = false;
    std::vector<std::shared_ptr<const StoredEvent>> pending;
    for (auto &stored : m_buffered) {
        if (!sentIds.count(stored->event.id))
            pending.push_back(std::move(stored));
    }
    m_buffered.clear();
    return pending;
}

} // namespace buzz::relay
