#pragma once

#include <functional>
#include <utility>

namespace buzz::relay::store {

class PgConnection;
class SqliteConnection;

// A connection borrowed from its owner (the writer's reader pool, the writer itself, a replica's
// reader pool) for one read: an SQLite connection, or a PostgreSQL one (exactly one of the two).
// The connection has exactly one user while the lease lives; it goes back (or its lock is
// released) when the lease is destroyed or reset, never twice.
class ConnectionLease
{
public:
    ConnectionLease() = default;
    ConnectionLease(SqliteConnection *connection, std::function<void()> release)
        : m_connection(connection)
        , m_release(std::move(release))
    { }
    ConnectionLease(PgConnection *connection, std::function<void()> release)
        : m_postgres(connection)
        , m_release(std::move(release))
    { }
    ConnectionLease(ConnectionLease &&other) noexcept { *this = std::move(other); }
    ConnectionLease &operator=(ConnectionLease &&other) noexcept
    {
        if (this != &other) {
            reset();
            m_connection = std::exchange(other.m_connection, nullptr);
            m_postgres = std::exchange(other.m_postgres, nullptr);
            m_release = std::exchange(other.m_release, nullptr);
        }
        return *this;
    }
    ConnectionLease(const ConnectionLease &) = delete;
    ConnectionLease &operator=(const ConnectionLease &) = delete;
    ~ConnectionLease() { reset(); }

    explicit operator bool() const { return m_connection != nullptr || m_postgres != nullptr; }
    // The SQLite connection (SQLite leases only).
    SqliteConnection &connection() const { return *m_connection; }
    SqliteConnection *sqlite() const { return m_connection; }
    PgConnection *postgres() const { return m_postgres; }

    void reset()
    {
        if (m_release)
            m_release();
        m_release = nullptr;
        m_connection = nullptr;
        m_postgres = nullptr;
    }

private:
    SqliteConnection *m_connection = nullptr;
    PgConnection *m_postgres = nullptr;
    std::function<void()> m_release;
};

} // namespace buzz::relay::store
