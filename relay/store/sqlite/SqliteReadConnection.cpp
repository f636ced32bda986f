#include "relay/store/sqlite/SqliteReadConnection.h"

#include "relay/store/ConnectionLease.h"
#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteExactPairLookup.h"
#include "relay/store/sqlite/SqliteFilterSql.h"
#include "relay/store/sqlite/SqliteSearchIndex.h"

namespace buzz::relay::store {

namespace {
ReadStatus sqliteReadFailure(int code)
{
    return {false, SqliteConnection::isInterrupted(code), code};
}
} // namespace

SqliteConnection &SqliteReadConnection::of(const ConnectionLease &lease)
{
    return static_cast<SqliteReadConnection &>(lease.connection()).connection();
}

ReadStatus SqliteReadConnection::selectEvents(const EventQuery &query, const RowSink &sink,
                                              bool &stopped)
{
    const auto plan = SqliteFilterSql::build(query);
    if (plan.matchesNothing)
        return {};
    auto statement = m_connection.prepare(plan.sql);
    if (!statement.valid())
        return sqliteReadFailure(m_connection.errorCode());
    plan.bindTo(statement);
    while (statement.step()) {
        if (!sink.row(SqliteEventReader::rowToStoredEvent(statement))) {
            stopped = true;
            return {};
        }
    }
    if (!statement.ok())
        return sqliteReadFailure(statement.resultCode());
    return {};
}

ReadStatus SqliteReadConnection::countEvents(const EventQuery &query, std::int64_t &count)
{
    const auto plan = SqliteFilterSql::build(query);
    if (plan.matchesNothing)
        return {};
    auto statement = m_connection.prepare(plan.sql);
    if (!statement.valid())
        return sqliteReadFailure(m_connection.errorCode());
    plan.bindTo(statement);
    if (statement.step())
        count += statement.int64(0);
    if (!statement.ok())
        return sqliteReadFailure(statement.resultCode());
    return {};
}

ReadStatus SqliteReadConnection::searchText(const TextQuery &query, std::vector<EventPair> &hits)
{
    return SqliteSearchIndex::search(m_connection, query, hits);
}

ReadStatus SqliteReadConnection::findPairs(const std::string &community,
                                           std::span<const EventPair> pairs, Deleted deleted,
                                           std::vector<StoredEvent> &rows)
{
    return SqliteExactPairLookup::findPairs(m_connection, community, pairs, deleted, rows);
}

ReadStatus SqliteReadConnection::findIds(const std::string &community,
                                         std::span<const std::string> ids,
                                         std::vector<StoredEvent> &rows)
{
    return SqliteExactPairLookup::findIds(m_connection, community, ids, rows);
}

int SqliteReadConnection::exportPage(const std::string &community, ExportCursor &cursor, int limit,
                                     const std::function<void(const StoredEvent &)> &sink,
                                     std::string &error)
{
    auto select = m_connection.prepare(
        std::string("SELECT ") + SqliteEventReader::kEventColumns
        + " FROM events e WHERE e.community = ?1 AND (?2 = 0 OR e.created_at > ?3 OR "
          "(e.created_at = ?3 AND e.id > ?4)) ORDER BY e.created_at, e.id LIMIT "
        + std::to_string(limit));
    if (!select.valid()) {
        error = m_connection.lastError();
        return -1;
    }
    select.bindStatic(1, community);
    select.bind(2, cursor.started ? 1 : 0);
    select.bind(3, cursor.createdAt);
    select.bindBlobStatic(4, cursor.id.data(), cursor.id.size());
    int rows = 0;
    while (select.step()) {
        StoredEvent stored = SqliteEventReader::rowToStoredEvent(select);
        cursor.started = true;
        cursor.createdAt = stored.event.createdAt;
        cursor.id = std::string(select.blob(2));
        sink(stored);
        ++rows;
    }
    if (!select.ok()) {
        error = m_connection.lastError();
        return -1;
    }
    return rows;
}

} // namespace buzz::relay::store
