#pragma once

#include "relay/store/ConnectionLease.h"
#include "relay/store/postgres/PgEventReader.h"
#include "relay/store/sqlite/SqliteEventReader.h"

#include <optional>

namespace buzz::relay::store {

// EventLookup on a leased connection, whichever store it belongs to (no allocation: the reader
// lives here, as long as this object).
class LeaseLookup
{
public:
    explicit LeaseLookup(const ConnectionLease &lease)
    {
        if (lease.postgres())
            m_postgres.emplace(*lease.postgres());
        else
            m_sqlite.emplace(lease.connection());
    }
    EventLookup &operator*()
    {
        return m_postgres ? static_cast<EventLookup &>(*m_postgres) : *m_sqlite;
    }
    EventLookup *operator->() { return &**this; }

private:
    std::optional<SqliteEventReader> m_sqlite;
    std::optional<PgEventReader> m_postgres;
};

} // namespace buzz::relay::store
