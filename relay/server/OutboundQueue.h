#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace buzz::relay {

// A connection's send queue as upstream bounds it (docs/buzz-protocol.md §WebSocket limits: 1 000
// messages; three consecutive sends that find it full ⇒ disconnect). Qt buffers writes without
// limit, so the session records every frame it queues and reconciles with the socket's
// bytesToWrite() to learn how many are still waiting. A live event finding 1 000 frames waiting is
// dropped (three in a row ⇒ disconnect). Every frame, history and OK included, is also held to a
// byte bound: a peer that stops reading while asking for history would otherwise grow the relay
// without limit, so one that would pass it is disconnected as a slow consumer. The bound is twice
// the largest answer one REQ may produce, so a peer that reads is never cut by one burst. Pongs,
// which QWebSocket writes by itself, count against the same bound (check()).
class OutboundQueue
{
public:
    enum class Verdict { Send, Drop, Disconnect };

    static constexpr std::size_t kDefaultCapacity = 1000;
    static constexpr int kDefaultMaxConsecutiveFull = 3;
    static constexpr std::size_t kDefaultMaxBytes = 64 * 1024 * 1024;

    explicit OutboundQueue(std::size_t capacity = kDefaultCapacity,
                           int maxConsecutiveFull = kDefaultMaxConsecutiveFull,
                           std::size_t maxBytes = kDefaultMaxBytes);

    // Bytes a WebSocket text frame of `payloadBytes` occupies on the wire (server frames are
    // unmasked: 2, 4 or 10 header bytes).
    static std::size_t wireBytes(std::size_t payloadBytes);

    // A frame the client asked for (history, EOSE, OK, NOTICE, CLOSED): Send (and counted as
    // queued) unless it would take the bytes waiting past the bound: Disconnect.
    Verdict offer(std::size_t wireBytes, std::int64_t pendingBytes);
    // A live event wants out; `pendingBytes` is the socket's bytesToWrite() now.
    Verdict offerLive(std::size_t wireBytes, std::int64_t pendingBytes);
    // After the socket wrote frames of its own (QWebSocket answers every ping with a pong):
    // Disconnect once the bytes waiting passed the bound.
    Verdict check(std::int64_t pendingBytes);

    // Frames not yet handed to the kernel, as of the last reconcile.
    std::size_t waitingFrames() const { return m_frames.size(); }
    std::int64_t waitingBytes() const { return m_queuedBytes; }

private:
    void reconcile(std::int64_t pendingBytes);
    void queued(std::size_t wireBytes);
    // Over the bound with `wireBytes` more: the bytes waiting are the socket's own count when it
    // holds more than the frames recorded here (pongs).
    bool overBytes(std::size_t wireBytes, std::int64_t pendingBytes) const;

    std::size_t m_capacity;
    int m_maxConsecutiveFull;
    std::size_t m_maxBytes;
    int m_consecutiveFull = 0;
    std::deque<std::size_t> m_frames; // wire sizes, oldest first
    std::int64_t m_queuedBytes = 0; // sum of m_frames
};

} // namespace buzz::relay
