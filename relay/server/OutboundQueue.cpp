#include "relay/server/OutboundQueue.h"

#include <algorithm>

namespace buzz::relay {

OutboundQueue::OutboundQueue(std::size_t capacity, int maxConsecutiveFull, std::size_t maxBytes)
    : m_capacity(capacity)
    , m_maxConsecutiveFull(maxConsecutiveFull)
    , m_maxBytes(maxBytes)
{ }

bool OutboundQueue::overBytes(std::size_t wireBytes, std::int64_t pendingBytes) const
{
    const std::int64_t waiting = std::max(m_queuedBytes, pendingBytes);
    return std::uint64_t(std::max<std::int64_t>(0, waiting)) + wireBytes > m_maxBytes;
}

OutboundQueue::Verdict OutboundQueue::check(std::int64_t pendingBytes)
{
    reconcile(pendingBytes);
    return overBytes(0, pendingBytes) ? Verdict::Disconnect : Verdict::Send;
}

OutboundQueue::Verdict OutboundQueue::offer(std::size_t wireBytes, std::int64_t pendingBytes)
{
    reconcile(pendingBytes);
    if (overBytes(wireBytes, pendingBytes))
        return Verdict::Disconnect;
    queued(wireBytes);
    return Verdict::Send;
}

std::size_t OutboundQueue::wireBytes(std::size_t payloadBytes)
{
    if (payloadBytes < 126)
        return payloadBytes + 2;
    if (payloadBytes <= 0xFFFF)
        return payloadBytes + 4;
    return payloadBytes + 10;
}

void OutboundQueue::queued(std::size_t wireBytes)
{
    m_frames.push_back(wireBytes);
    m_queuedBytes += std::int64_t(wireBytes);
}

void OutboundQueue::reconcile(std::int64_t pendingBytes)
{
    // Everything but the last `pendingBytes` has been written: drop frames from the front while
    // what remains still covers the pending bytes.
    while (!m_frames.empty() && m_queuedBytes - std::int64_t(m_frames.front()) >= pendingBytes) {
        m_queuedBytes -= std::int64_t(m_frames.front());
        m_frames.pop_front();
    }
}

OutboundQueue::Verdict OutboundQueue::offerLive(std::size_t wireBytes, std::int64_t pendingBytes)
{
    reconcile(pendingBytes);
    if (m_frames.size() >= m_capacity) {
        ++m_consecutiveFull;
        return m_consecutiveFull >= m_maxConsecutiveFull ? Verdict::Disconnect : Verdict::Drop;
    }
    if (overBytes(wireBytes, pendingBytes))
        return Verdict::Disconnect;
    m_consecutiveFull = 0;
    queued(wireBytes);
    return Verdict::Send;
}

} // namespace buzz::relay
