#pragma once

// What one replica can prove at the start of a read: the heartbeat entry it has replayed, resolved
// against the writer's ring (replication/FenceRing). The router only ever sees this value.

#include <cstdint>

namespace buzz::relay {

struct ReplicaProof
{
    enum class State {
        Proved, // entry resolved: the replica holds every commit up to it
        Uninitialized, // no heartbeat replayed yet (or the ring is empty)
        TokenBehind, // replayed token is older than the oldest retained entry
        ValidationError, // epoch mismatch: the writer's token history was rotated
    };
    State state = State::Uninitialized;
    std::int64_t entryCommittedAtMs = 0; // writer commit time of the resolved heartbeat
    std::int64_t fenceWallSec = 0; // every channel row with created_at <= this is on the replica
    // How far the replica has applied the writer's commits, in commit order: the commit-log LSN
    // (SQLite) or the WAL replay position (PostgreSQL). A subscription's history asks for one.
    std::int64_t position = 0;
};

} // namespace buzz::relay
