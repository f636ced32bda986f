#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace buzz::relay {

// The relay-wide bound on memory held for clients (relay/README.md "Limits"): answers being
// assembled, charged row by row by the query service (twice their event JSON: the JSON and the
// parsed event), and bytes waiting in sockets for clients that read slowly, charged by the server.
// Past it the relay refuses answers larger than kSmallAnswerBytes and cuts the connections that
// hold the most unread bytes. Thread-safe.
class OutboundBudget
{
public:
    static constexpr std::size_t kDefaultLimitBytes = std::size_t(256) * 1024 * 1024;
    // An answer may always take this much, whatever the budget holds: small reads (a canvas head,
    // a count, a page of messages) are never refused.
    static constexpr std::size_t kSmallAnswerBytes = 1024 * 1024;
    // The refusal's reason (HTTP 503 {"error":…} with Retry-After; WS CLOSED
    // "error: retryable: …").
    static constexpr const char *kFullMessage =
        "relay outbound memory limit reached, try again shortly";

    explicit OutboundBudget(std::size_t limitBytes = kDefaultLimitBytes);

    std::size_t limit() const { return m_limit; }
    std::int64_t used() const { return m_used.load(std::memory_order_relaxed); }
    bool over() const { return used() > std::int64_t(m_limit); }
    // Any sign: bytes now held (positive) or given back.
    void add(std::int64_t bytes) { m_used.fetch_add(bytes, std::memory_order_relaxed); }

    // Bytes held for one answer, given back when the last owner lets go of it.
    class Hold
    {
    public:
        explicit Hold(std::shared_ptr<OutboundBudget> budget);
        ~Hold();
        Hold(const Hold &) = delete;
        Hold &operator=(const Hold &) = delete;

        // Takes `bytes` more for the answer; false (nothing taken) when that would pass the
        // limit and the answer holds more than kSmallAnswerBytes.
        bool take(std::size_t bytes);
        // Gives back `bytes` taken earlier for something the answer no longer holds.
        void give(std::size_t bytes);
        std::size_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }

    private:
        std::shared_ptr<OutboundBudget> m_budget;
        std::atomic<std::size_t> m_bytes {0};
    };

private:
    std::size_t m_limit;
    std::atomic<std::int64_t> m_used {0};
};

} // namespace buzz::relay
