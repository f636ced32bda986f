#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;

// What a finished read reports back to the router (routing issue): replica failures and thread
// pages are settled only after the rows are known.
struct ReadAttempt
{
    struct Page
    {
        std::size_t rows = 0; // rows the filter's SQL returned
        std::optional<std::int64_t> newestCreatedAt; // greatest created_at among them
    };
    bool ok = true;
    int sqliteCode = 0; // the failing step's result code when !ok
    std::vector<Page> pages; // one per filter, in filter order
};

// The router's verdict on a finished read: keep it, run the same read again on the writer (with
// ReadRequest::forceWriterReason = reason), or surface a statement timeout.
struct ReadSettlement
{
    enum class Action { Accept, RerunOnWriter, TimedOut };
    Action action = Action::Accept;
    std::string reason;
};

// A connection borrowed for one read, plus where it came from (for the route header and metrics).
// Returned to its pool (or its lock released) when the lease is destroyed.
class ReadLease
{
public:
    // A read the router refused before it ran (null connection): statement timeout surfaced, or a
    // retryable rejection of a subscription-history read when every reader is busy.
    enum class Refusal { None, TimedOut, Retryable };

    ReadLease() = default;
    static ReadLease refused(Refusal refusal, std::string route, std::string reason)
    {
        ReadLease lease;
        lease.m_refusal = refusal;
        lease.m_route = std::move(route);
        lease.m_reason = std::move(reason);
        return lease;
    }
    ReadLease(SqliteConnection *connection, std::function<void()> release, std::string route,
              std::string reason)
        : m_connection(connection)
        , m_release(std::move(release))
        , m_route(std::move(route))
        , m_reason(std::move(reason))
    { }
    ReadLease(ReadLease &&other) noexcept { *this = std::move(other); }
    ReadLease &operator=(ReadLease &&other) noexcept
    {
        if (this != &other) {
            releaseNow();
            m_connection = other.m_connection;
            m_release = std::move(other.m_release);
            m_route = std::move(other.m_route);
            m_reason = std::move(other.m_reason);
            m_refusal = other.m_refusal;
            m_settle = std::move(other.m_settle);
            other.m_settle = nullptr;
            other.m_connection = nullptr;
            other.m_release = nullptr;
        }
        return *this;
    }
    ReadLease(const ReadLease &) = delete;
    ReadLease &operator=(const ReadLease &) = delete;
    ~ReadLease() { releaseNow(); }

    explicit operator bool() const { return m_connection != nullptr; }
    SqliteConnection &connection() const { return *m_connection; }
    const std::string &route() const { return m_route; }
    const std::string &reason() const { return m_reason; }
    Refusal refusal() const { return m_refusal; }

    // Writer leases accept everything; a replica lease may ask for a writer re-run.
    void setSettle(std::function<ReadSettlement(const ReadAttempt &)> settle)
    {
        m_settle = std::move(settle);
    }
    ReadSettlement settle(const ReadAttempt &attempt) const
    {
        return m_settle ? m_settle(attempt) : ReadSettlement {};
    }

private:
    void releaseNow()
    {
        if (m_release)
            m_release();
        m_release = nullptr;
        m_connection = nullptr;
    }

    SqliteConnection *m_connection = nullptr;
    std::function<void()> m_release;
    std::string m_route;
    std::string m_reason;
    Refusal m_refusal = Refusal::None;
    std::function<ReadSettlement(const ReadAttempt &)> m_settle;
};

} // namespace buzz::relay::store
