#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace buzz::relay {

// A connection's send queue as upstream bounds it (reference §5.6: BUZZ_SEND_BUFFER = 1 000
// messages; three consecutive sends that find it full ⇒ disconnect). Qt buffers writes without
// limit, so the session records every frame it queues and reconciles with the socket's
// bytesToWrite() to learn how many are still waiting. Only live fan-out is subject to the bound:
// a history answer or an OK is what the client asked for and is always queued, while a live event
// to a peer that stopped reading is what turns a slow consumer into unbounded relay memory.
class OutboundQueue
{
public:
    enum class Verdict { Send, Drop, Disconnect };

    static constexpr std::size_t kDefaultCapacity = 1000;
    static constexpr int kDefaultMaxConsecutiveFull = 3;

    explicit OutboundQueue(std::size_t capacity = kDefaultCapacity,
                           int maxConsecutiveFull = kDefaultMaxConsecutiveFull);

    // Bytes a WebSocket text frame of `payloadBytes` occupies on the wire (server frames are
    // unmasked: 2, 4 or 10 header bytes).
    static std::size_t wireBytes(std::size_t payloadBytes);

    // A frame that is always sent (history, EOSE, OK, NOTICE, CLOSED).
    void queued(std::size_t wireBytes);
    // A live event wants out; `pendingBytes` is the socket's bytesToWrite() now.
    Verdict offerLive(std::size_t wireBytes, std::int64_t pendingBytes);

    // Frames not yet handed to the kernel, as of the last reconcile.
    std::size_t waitingFrames() const { return m_frames.size(); }

private:
    void reconcile(std::int64_t pendingBytes);

    std::size_t m_capacity;
    int m_maxConsecutiveFull;
    int m_consecutiveFull = 0;
    std::deque<std::size_t> m_frames; // wire sizes, oldest first
    std::int64_t m_queuedBytes = 0; // sum of m_frames
};

} // namespace buzz::relay
