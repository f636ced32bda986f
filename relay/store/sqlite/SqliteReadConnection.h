#pragma once

#include "relay/store/ReadConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"

namespace buzz::relay::store {

class ConnectionLease;
class SqliteConnection;

// ReadConnection on one SQLite connection (a reader of the writer's pool, the in-memory writer
// itself, or a replica's reader): the statements of store/sqlite.
class SqliteReadConnection final : public ReadConnection
{
public:
    explicit SqliteReadConnection(SqliteConnection &connection)
        : m_connection(connection)
        , m_lookup(connection)
    { }

    SqliteConnection &connection() const { return m_connection; }
    // The SQLite connection of a lease the SQLite store or a SQLite replica lent (store/sqlite
    // and its tests only).
    static SqliteConnection &of(const ConnectionLease &lease);

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
    SqliteConnection &m_connection;
    SqliteEventReader m_lookup;
};

} // namespace buzz::relay::store
