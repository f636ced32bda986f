#include "relay/ingest/PresenceQuery.h"

#include "net/nostr/Kinds.h"

#include <algorithm>

namespace buzz::relay::ingest {

bool PresenceQuery::matches(const std::vector<nostr::Filter> &filters)
{
    if (filters.empty())
        return false;
    return std::all_of(filters.begin(), filters.end(), [](const nostr::Filter &filter) {
        return filter.kinds && filter.kinds->size() == 1
            && ((*filter.kinds)[0] == nostr::kinds::kPresence
                || (*filter.kinds)[0] == kPresenceSidecar)
            && filter.authors && !filter.authors->empty();
    });
}

QueryResult PresenceQuery::answer(const std::vector<nostr::Filter> &filters, PresenceTable &table,
                                  const RelayEmitter &signer, const std::string &community,
                                  std::int64_t now)
{
    std::vector<std::string> authors;
    for (const nostr::Filter &filter : filters)
        authors.insert(authors.end(), filter.authors->begin(), filter.authors->end());
    std::vector<PresenceTable::Entry> live = table.lookup(community, authors, now);
    std::stable_sort(live.begin(), live.end(),
                     [](const auto &a, const auto &b) { return a.createdAt > b.createdAt; });
    QueryResult result;
    result.events.reserve(live.size());
    for (PresenceTable::Entry &entry : live) {
        nostr::Event event = signer.sign(nostr::kinds::kPresence, entry.createdAt,
                                         {{"p", entry.pubkey}}, std::move(entry.status));
        std::string json = event.toJson();
        result.events.push_back(StoredEvent {std::move(event), std::move(json), community, {}});
    }
    return result;
}

} // namespace buzz::relay::ingest
