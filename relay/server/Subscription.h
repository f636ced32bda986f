#pragma once

#include "net/nostr/Filter.h"
#include "relay/RelayEngine.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace buzz::relay {

// One REQ on one connection: its filters, its live scope, and the live events that arrive while
// its history is still being read (delivered after EOSE, minus what the history already sent).
class Subscription
{
public:
    Subscription(std::string id, std::vector<nostr::Filter> filters, std::uint64_t generation);

    const std::string &id() const { return m_id; }
    const std::vector<nostr::Filter> &filters() const { return m_filters; }
    std::uint64_t generation() const { return m_generation; }

    // The one channel every filter pins with #h, or nullopt (a global subscription).
    const std::optional<std::string> &channelScope() const { return m_channelScope; }
    bool isSearch() const { return m_isSearch; }
    bool mixesSearchAndNonSearch() const { return m_mixesSearch; }

    // Fan-out invariant (docs/buzz-protocol.md §Subscriptions): channel rows go only to
    // subscriptions scoped to exactly that channel; global rows to any subscription whose filters
    // match.
    bool acceptsLive(const StoredEvent &stored) const;

    bool isLoadingHistory() const { return m_loadingHistory; }
    void bufferWhileLoading(std::shared_ptr<const StoredEvent> stored);
    // History sent: returns the buffered live events the history did not already contain.
    std::vector<std::shared_ptr<const StoredEvent>>
    finishHistory(const std::unordered_set<std::string> &sentIds);

private:
    bool filterMatches(std::size_t index, const StoredEvent &stored) const;

    std::string m_id;
    std::vector<nostr::Filter> m_filters;
    // Filters without their #h condition: reactions and deletions carry no h tag but are scoped to
    // their target's channel, which the store resolved (upstream falls back to channel_id then).
    std::vector<nostr::Filter> m_filtersWithoutH;
    std::uint64_t m_generation;
    std::optional<std::string> m_channelScope;
    bool m_isSearch = false;
    bool m_mixesSearch = false;
    bool m_loadingHistory = true;
    std::vector<std::shared_ptr<const StoredEvent>> m_buffered;
};

} // namespace buzz::relay
