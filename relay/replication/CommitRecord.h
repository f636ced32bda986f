#pragma once

#include <cstdint>
#include <string>

namespace buzz::relay::replication {

// One row of the writer's commit log: the unit a replica replays, strictly in LSN order.
struct CommitRecord
{
    std::int64_t lsn = 0;
    std::int64_t committedAtMs = 0;
    std::string change; // JSON: {"community":…,"ops":[…]} or {"heartbeat":{…},"ops":[]}
};

} // namespace buzz::relay::replication
