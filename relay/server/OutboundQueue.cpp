#include "relay/server/OutboundQueue.h"

namespace buzz::relay {

OutboundQueue::OutboundQueue(std::size_t capacity, int maxConsecutiveFull, std::size_t maxBytes)
    : m_capacity(capacity)
    , m_maxConsecutiveFull(maxConsecutiveFull)
    , m_maxBytes(maxBytes)
{ }

bool OutboundQueue::overBytes(std::size_t wireBytes) const
{
    return std::uint64_t(m_queuedBytes) + wireBytes > m_maxBytes;
}

OutboundQueue::Verdict OutboundQueue::offer(std::size_t wireBytes, std::int64_t pendingBytes)
{
    reconcile(pendingBytes);
    if (overBytes(wireBytes))
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
    if (overBytes(wireBytes))
        return Verdict::Disconnect;
    m_consecutiveFull = 0;
    queued(wireBytes);
    return Verdict::Send;
}

} // namespace buzz::relay
