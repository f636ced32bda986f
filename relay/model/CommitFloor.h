#pragma once

// The writer-side half of the fence (docs/architecture.md §The fence; upstream's deferred trigger):
// a channel-bearing row whose signed created_at is older than commit time − 960 s is refused at
// commit. Ingest already bounds created_at to ±900 s of receipt, so only a write that sat in a
// transaction for a minute, or a clock jump, ever trips it — and that is exactly the row a replica
// fence wall could otherwise have promised was already replicated.

#include "relay/model/RouteTypes.h"

#include <cstdint>
#include <string_view>

namespace buzz::relay {

class CommitFloor
{
public:
    // The refusal the client sees (OK false / HTTP 400), worded like the relay's other `invalid:`
    // texts.
    static constexpr std::string_view kMessage =
        "invalid: created_at is older than the commit floor";

    static std::int64_t floorSec(std::int64_t commitTimeMs)
    {
        const std::int64_t commitSec =
            commitTimeMs >= 0 ? commitTimeMs / 1000 : -((-commitTimeMs + 999) / 1000);
        return commitSec - kCreatedAtFloorSec;
    }
    static bool refuses(std::int64_t createdAtSec, std::int64_t commitTimeMs)
    {
        return createdAtSec < floorSec(commitTimeMs);
    }
};

} // namespace buzz::relay
