#pragma once

#include "relay/store/ReadConnection.h"
#include "relay/store/postgres/PgEventReader.h"

namespace buzz::relay::store {

class ConnectionLease;
class PgConnection;

// ReadConnection on one PostgreSQL connection (a reader of the writer's pool, or one on the
// standby): the statements of store/postgres.
class PgReadConnection final : public ReadConnection
{
public:
    explicit PgReadConnection(PgConnection &connection)
        : m_connection(connection)
        , m_lookup(connection)
    { }

    PgConnection &connection() const { return m_connection; }
    // The PostgreSQL connection of a lease the PostgreSQL store or its standby lent
    // (store/postgres and its tests only).
    static PgConnection &of(const ConnectionLease &lease);

    EventLookup &lookup() override { return m_lookup; }
    ReadStatus selectEvents(const EventQuery &query, const RowSink &sink, bool &stopped) override;
    ReadStatus countEvents(const EventQuery &query, std::int64_t &count) override;
    ReadStatus searchText(const TextQuery &query, std::vector<EventPair> &hits) override;
    ReadStatus findPairs(const std::string &community, std::span<const EventPair> pairs,
                         Deleted deleted, std::vector<StoredEvent> &rows) override;
    ReadStatus findIds(const std::string &community, std::span<const std::string> ids,
                       std::vector<StoredEvent> &rows) override;
    int exportPage(const std::string &community, ExportCursor &cursor, int limit,
                   const std::function<void(const StoredEvent &)> &sink,
                   std::string &error) override;

private:
    PgConnection &m_connection;
    PgEventReader m_lookup;
};

} // namespace buzz::relay::store
