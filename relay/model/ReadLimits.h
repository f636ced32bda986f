#pragma once

#include "net/nostr/Filter.h"

#include <algorithm>

namespace buzz::relay {

// Row limits of one filter. Query builds its LIMIT from them and routing verifies a replica's
// thread page against the same number, so the two can never disagree about a "full" page.
struct ReadLimits
{
    static constexpr int kMaxLimit = 1000; // a page of a channel, kind or author read
    static constexpr int kThreadDefaultLimit = 100; // depth_limit thread page without `limit`
    static constexpr int kThreadMaxLimit = 500;

    static int pageLimit(const nostr::Filter &filter)
    {
        return std::clamp(filter.limit.value_or(kMaxLimit), 0, kMaxLimit);
    }
    static int threadPageLimit(const nostr::Filter &filter)
    {
        return std::clamp(filter.limit.value_or(kThreadDefaultLimit), 0, kThreadMaxLimit);
    }
};

} // namespace buzz::relay
