#pragma once

#include "net/nostr/Filter.h"
#include "relay/ingest/RelayEmitter.h"
#include "relay/model/PresenceTable.h"
#include "relay/model/QueryResult.h"

#include <cstdint>
#include <string>
#include <vector>

namespace buzz::relay::ingest {

// Reads of presence (docs/buzz-protocol.md §Presence and typing): a request whose every filter is
// kinds:[20001] (or upstream's sidecar kinds:[40902]) with authors is answered from the presence
// table, one relay-signed 20001 per author with a live status (content: the status, tags: one `p`
// naming the author, created_at: the author's own 20001), newest first. Presence is never stored,
// so the store could not answer it.
class PresenceQuery
{
public:
    static constexpr int kPresenceSidecar = 40902;

    static bool matches(const std::vector<nostr::Filter> &filters);
    static QueryResult answer(const std::vector<nostr::Filter> &filters, PresenceTable &table,
                              const RelayEmitter &signer, const std::string &community,
                              std::int64_t now);
};

} // namespace buzz::relay::ingest
