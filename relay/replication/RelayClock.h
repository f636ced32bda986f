#pragma once

// The relay's notion of "now" in milliseconds: the system clock (or a manual clock in tests) plus
// an offset that QA can move with POST /admin/clock. Heartbeats, replica lag, the commit floor and
// ingest time checks all read this one clock so a test can drive them without sleeping.

#include <atomic>
#include <cstdint>
#include <memory>

namespace buzz::relay::replication {

class RelayClock
{
public:
    static std::shared_ptr<RelayClock> system();
    static std::shared_ptr<RelayClock> manual(std::int64_t startMs);

    std::int64_t nowMs() const;
    std::int64_t nowSec() const { return floorDiv(nowMs(), 1000); }

    std::int64_t offsetMs() const { return m_offsetMs.load(); }
    void setOffsetMs(std::int64_t offsetMs) { m_offsetMs.store(offsetMs); }

    bool isManual() const { return m_manual; }
    // Manual clocks only: move the base time.
    void advanceMs(std::int64_t deltaMs) { m_manualMs.fetch_add(deltaMs); }
    void setManualMs(std::int64_t ms) { m_manualMs.store(ms); }

    static std::int64_t floorDiv(std::int64_t value, std::int64_t divisor)
    {
        const std::int64_t q = value / divisor;
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? q - 1 : q;
    }

private:
    explicit RelayClock(bool manual, std::int64_t startMs)
        : m_manual(manual)
        , m_manualMs(startMs)
    { }

    const bool m_manual;
    std::atomic<std::int64_t> m_manualMs;
    std::atomic<std::int64_t> m_offsetMs {0};
};

} // namespace buzz::relay::replication
