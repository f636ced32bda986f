#pragma once

#include "relay/store/ReadConnection.h"

#include <functional>
#include <utility>

namespace buzz::relay::store {

// A connection borrowed from its owner (the writer's reader pool, the writer itself, a replica's
// reader pool) for one read, whatever the backend. The connection has exactly one user while the
// lease lives; it goes back (or its lock is released) when the lease is destroyed or reset, never
// twice.
class ConnectionLease
{
public:
    ConnectionLease() = default;
    ConnectionLease(ReadConnection *connection, std::function<void()> release)
        : m_connection(connection)
        , m_release(std::move(release))
    { }
    ConnectionLease(ConnectionLease &&other) noexcept { *this = std::move(other); }
    ConnectionLease &operator=(ConnectionLease &&other) noexcept
    {
        if (this != &other) {
            reset();
            m_connection = std::exchange(other.m_connection, nullptr);
            m_release = std::exchange(other.m_release, nullptr);
        }
        return *this;
    }
    ConnectionLease(const ConnectionLease &) = delete;
    ConnectionLease &operator=(const ConnectionLease &) = delete;
    ~ConnectionLease() { reset(); }

    explicit operator bool() const { return m_connection != nullptr; }
    ReadConnection &connection() const { return *m_connection; }
    ReadConnection *operator->() const { return m_connection; }

    void reset()
    {
        if (m_release)
            m_release();
        m_release = nullptr;
        m_connection = nullptr;
    }

private:
    ReadConnection *m_connection = nullptr;
    std::function<void()> m_release;
};

} // namespace buzz::relay::store
