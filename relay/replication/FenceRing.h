#pragma once

// The writer's memory of recent heartbeats (docs/architecture.md §The fence): the last 120 (token,
// committed_at, fence_wall) entries, ~60 s at one beat per 500 ms. A replica proves itself by the
// heartbeat token it has replayed; the ring turns that token into "everything committed up to time
// T is here, and every channel row with created_at <= wall is here". Thread-safe.

#include "relay/model/ReplicaProof.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace buzz::relay::replication {

struct HeartbeatEntry
{
    std::int64_t token = 0;
    std::int64_t committedAtMs = 0;
    std::int64_t fenceWallSec = 0;
};

// What a replica has replayed: the last heartbeat record it applied.
struct ObservedHeartbeat
{
    std::int64_t token = 0;
    std::uint64_t epoch = 0;
};

class FenceRing
{
public:
    static constexpr std::size_t kCapacity = 120;

    explicit FenceRing(std::uint64_t epoch);
    // Random per process start, so a replica file or heartbeat row from an earlier run can never
    // be mistaken for this history. Below 2^53 so JSON tools (and a PostgreSQL bigint) hold it.
    static std::uint64_t randomEpoch();
    // "proved", "uninitialized", "token_behind", "validation_error" (GET /admin/state).
    static const char *stateName(ReplicaProof::State state);

    // wall = min(oldest open write start, sample) − 960 s floor − 5 s margin, in whole seconds.
    static std::int64_t fenceWallSec(std::optional<std::int64_t> oldestOpenWriteStartMs,
                                     std::int64_t sampleMs);

    std::uint64_t epoch() const;
    // The epoch to stamp on a heartbeat about to be written with `token`. A token that does not
    // move forward (writer database restored from a backup) or a clock that went backwards makes
    // every retained entry meaningless: the epoch rotates and the ring is cleared.
    std::uint64_t epochForNext(std::int64_t token, std::int64_t sampleMs);
    // Remember a committed heartbeat (only after its transaction committed).
    void record(std::uint64_t epoch, const HeartbeatEntry &entry);
    void rotateEpoch();

    // Greatest retained entry with token <= observed; fails closed otherwise.
    ReplicaProof resolve(const std::optional<ObservedHeartbeat> &observed) const;

    std::optional<HeartbeatEntry> latest() const;
    std::size_t size() const;

private:
    void rotateLocked();

    mutable std::mutex m_mutex;
    std::uint64_t m_epoch;
    std::deque<HeartbeatEntry> m_entries;
};

} // namespace buzz::relay::replication
