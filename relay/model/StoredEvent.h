#pragma once

#include "net/nostr/Event.h"

#include <optional>
#include <string>

namespace buzz::relay {

// A stored event as served: the parsed event plus its exact wire JSON (serialised once at ingest,
// so reads never re-serialise) and its resolved scope.
struct StoredEvent
{
    nostr::Event event;
    std::string json;
    std::string community;
    std::optional<std::string> channel; // resolved channel (may differ from the literal h tag)
};

} // namespace buzz::relay
