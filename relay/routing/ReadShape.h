#pragma once

// The facts about one filter that decide which proof a replica must show before serving it.
// Derived from the filter alone; the engine may tighten channelRowsOnly when it scopes a thread to
// its root's channel itself.

#include "net/nostr/Filter.h"

#include <cstdint>
#include <optional>

namespace buzz::relay {

struct ReadShape
{
    bool touchesChannelMetadata = false; // may return kind 39000 (no kinds list, or 39000 listed)
    bool pinsOneChannel = false; // exactly one #h value
    bool channelRowsOnly = false; // every row it can return is channel-bearing (floor-guarded)
    bool keysetContinuation = false; // until + before_id, or since + after_id: a later page
    bool threadPage = false; // one #e root + depth_limit, oldest first
    std::optional<std::int64_t> until; // page upper bound (DESC)
    std::optional<std::int64_t> since; // page lower bound (thread pages walk forward from it)

    static ReadShape of(const nostr::Filter &filter);
};

} // namespace buzz::relay
