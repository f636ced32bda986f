#include "relay/replication/FenceRing.h"

#include "relay/model/RouteTypes.h"
#include "relay/replication/RelayClock.h"

#include <algorithm>
#include <random>

namespace buzz::relay::replication {

FenceRing::FenceRing(std::uint64_t epoch)
    : m_epoch(epoch)
{ }

std::uint64_t FenceRing::randomEpoch()
{
    std::random_device device;
    const std::uint64_t value = (std::uint64_t(device()) << 32) ^ device();
    return (value & 0x1FFFFFFFFFFFFFull) | 1;
}

const char *FenceRing::stateName(ReplicaProof::State state)
{
    switch (state) {
    case ReplicaProof::State::Proved:
        return "proved";
    case ReplicaProof::State::Uninitialized:
        return "uninitialized";
    case ReplicaProof::State::TokenBehind:
        return "token_behind";
    case ReplicaProof::State::ValidationError:
        return "validation_error";
    }
    return "uninitialized";
}

std::int64_t FenceRing::fenceWallSec(std::optional<std::int64_t> oldestOpenWriteStartMs,
                                     std::int64_t sampleMs)
{
    const std::int64_t boundMs =
        oldestOpenWriteStartMs ? std::min(*oldestOpenWriteStartMs, sampleMs) : sampleMs;
    return RelayClock::floorDiv(boundMs, 1000) - kCreatedAtFloorSec - kFenceMarginSec;
}

std::uint64_t FenceRing::epoch() const
{
    std::lock_guard lock(m_mutex);
    return m_epoch;
}

std::uint64_t FenceRing::epochForNext(std::int64_t token, std::int64_t sampleMs)
{
    std::lock_guard lock(m_mutex);
    if (!m_entries.empty()
        && (token <= m_entries.back().token || sampleMs < m_entries.back().committedAtMs))
        rotateLocked();
    return m_epoch;
}

void FenceRing::record(std::uint64_t epoch, const HeartbeatEntry &entry)
{
    std::lock_guard lock(m_mutex);
    if (epoch != m_epoch)
        return; // rotated while this heartbeat was in flight: it belongs to a dead history
    m_entries.push_back(entry);
    while (m_entries.size() > kCapacity)
        m_entries.pop_front();
}

void FenceRing::rotateEpoch()
{
    std::lock_guard lock(m_mutex);
    rotateLocked();
}

void FenceRing::rotateLocked()
{
    ++m_epoch;
    m_entries.clear();
}

ReplicaProof FenceRing::resolve(const std::optional<ObservedHeartbeat> &observed) const
{
    ReplicaProof proof;
    std::lock_guard lock(m_mutex);
    if (!observed || m_entries.empty()) {
        proof.state = ReplicaProof::State::Uninitialized;
        return proof;
    }
    if (observed->epoch != m_epoch) {
        proof.state = ReplicaProof::State::ValidationError;
        return proof;
    }
    if (observed->token < m_entries.front().token) {
        proof.state = ReplicaProof::State::TokenBehind;
        return proof;
    }
    // Entries are in token order; the replica holds everything up to the greatest one <= observed.
    auto it = std::upper_bound(
        m_entries.begin(), m_entries.end(), observed->token,
        [](std::int64_t token, const HeartbeatEntry &entry) { return token < entry.token; });
    const HeartbeatEntry &entry = *std::prev(it);
    proof.state = ReplicaProof::State::Proved;
    proof.entryCommittedAtMs = entry.committedAtMs;
    proof.fenceWallSec = entry.fenceWallSec;
    return proof;
}

std::optional<HeartbeatEntry> FenceRing::latest() const
{
    std::lock_guard lock(m_mutex);
    if (m_entries.empty())
        return std::nullopt;
    return m_entries.back();
}

std::size_t FenceRing::size() const
{
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

} // namespace buzz::relay::replication
