#pragma once

namespace buzz::relay::store {

class PgStore;
class SqliteStore;

// The one way past the Store interface to the backend behind it (Store::accept): for the replica
// half of each backend (relay/replication/sqlite, relay/replication/postgres), which replays that
// backend's own log or reads that backend's own standby. Nothing else above the store asks which
// backend it runs on (relay/README.md "The storage seam").
class StoreVisitor
{
public:
    virtual ~StoreVisitor() = default;
    virtual void visit(SqliteStore &store) = 0;
    virtual void visit(PgStore &store) = 0;
};

} // namespace buzz::relay::store
