#pragma once

#include "relay/model/ReadRequest.h"
#include "relay/store/ConnectionLease.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace buzz::relay::routing {

// The router's answer to one read: a borrowed connection plus where it came from (the route
// header and metrics), or a refusal. The connection goes back when the lease is destroyed.
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
    ReadLease(store::ConnectionLease connection, std::string route, std::string reason)
        : m_connection(std::move(connection))
        , m_route(std::move(route))
        , m_reason(std::move(reason))
    { }

    explicit operator bool() const { return static_cast<bool>(m_connection); }
    // The reads on the leased connection, whatever the backend.
    store::ReadConnection &connection() const { return m_connection.connection(); }
    const store::ConnectionLease &lease() const { return m_connection; }
    const std::string &route() const { return m_route; }
    const std::string &reason() const { return m_reason; }
    Refusal refusal() const { return m_refusal; }
    // A replica lease: which replica serves and how old the data it proves is (now minus the
    // writer commit time of the heartbeat its snapshot replayed). Empty / -1 on the writer.
    void setReplica(std::string name, std::int64_t dataAgeMs)
    {
        m_replica = std::move(name);
        m_dataAgeMs = dataAgeMs;
    }
    const std::string &replica() const { return m_replica; }
    std::int64_t dataAgeMs() const { return m_dataAgeMs; }

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
    store::ConnectionLease m_connection;
    std::string m_route;
    std::string m_reason;
    Refusal m_refusal = Refusal::None;
    std::string m_replica;
    std::int64_t m_dataAgeMs = -1;
    std::function<ReadSettlement(const ReadAttempt &)> m_settle;
};

} // namespace buzz::relay::routing
