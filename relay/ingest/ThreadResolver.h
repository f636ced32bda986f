#pragma once

#include "net/nostr/Event.h"
#include "relay/model/IngestResult.h"
#include "relay/model/ThreadLink.h"
#include "relay/store/EventLookup.h"

#include <optional>
#include <string>

namespace buzz::relay::ingest {

// NIP-10 ancestry of a channel message (docs/buzz-protocol.md §Threads, §Ingest order step 19):
// marked `e` tags only.
class ThreadResolver
{
public:
    static constexpr int kMaxDepth = 100;

    struct Result
    {
        std::optional<IngestResult> rejection;
        std::optional<model::ThreadLink> link; // nullopt: not a reply
    };
    static Result resolve(store::EventLookup &reader, const std::string &community,
                          const std::optional<std::string> &channel, const nostr::Event &event);
};

} // namespace buzz::relay::ingest
