#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"
#include "relay/model/StoredEvent.h"

namespace buzz::relay::query {

// The full NIP-01 re-match applied to every row a query returns (docs/buzz-protocol.md
// §POST /query). Like the real relay, `#h` compares the tag string exactly and falls back to the
// resolved channel only for events that carry no `h` tag at all (reactions, deletions, relay
// discovery events).
class EventMatcher
{
public:
    static bool matches(const nostr::Filter &filter, const StoredEvent &stored);
};

} // namespace buzz::relay::query
