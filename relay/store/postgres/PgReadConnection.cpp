#include "relay/store/postgres/PgReadConnection.h"

#include "relay/store/ConnectionLease.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgExactPairLookup.h"
#include "relay/store/postgres/PgFilterSql.h"
#include "relay/store/postgres/PgSearchIndex.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcPgRead, "buzz.relay.store.postgres.read")

namespace buzz::relay::store {

namespace {
ReadStatus pgReadFailure(const PgResult &result)
{
    return {false, result.sqlState() == pgstate::kQueryCanceled, 0};
}
} // namespace

PgConnection &PgReadConnection::of(const ConnectionLease &lease)
{
    return static_cast<PgReadConnection &>(lease.connection()).connection();
}

ReadStatus PgReadConnection::selectEvents(const EventQuery &query, const RowSink &sink,
                                          bool &stopped)
{
    const auto plan = PgFilterSql::build(query);
    if (plan.matchesNothing)
        return {};
    const PgResult rows = m_connection.run(plan.sql, plan.params);
    if (!rows.ok()) {
        qCWarning(lcPgRead) << "query failed:" << rows.message().c_str();
        return pgReadFailure(rows);
    }
    // libpq holds every row until the result is cleared: that is held too while rows are read.
    const std::size_t resultBytes = rows.memoryBytes();
    if (sink.hold && !sink.hold(resultBytes)) {
        stopped = true;
        return {};
    }
    for (int row = 0; row < rows.rows(); ++row) {
        if (!sink.row(PgEventReader::rowToStoredEvent(rows, row))) {
            stopped = true;
            break;
        }
    }
    if (sink.release)
        sink.release(resultBytes);
    return {};
}

ReadStatus PgReadConnection::countEvents(const EventQuery &query, std::int64_t &count)
{
    const auto plan = PgFilterSql::build(query);
    if (plan.matchesNothing)
        return {};
    const PgResult total = m_connection.run(plan.sql, plan.params);
    if (!total.ok())
        return pgReadFailure(total);
    count += total.int64(0, 0);
    return {};
}

ReadStatus PgReadConnection::searchText(const TextQuery &query, std::vector<EventPair> &hits)
{
    return PgSearchIndex::search(m_connection, query, hits);
}

ReadStatus PgReadConnection::findPairs(const std::string &community,
                                       std::span<const EventPair> pairs, Deleted deleted,
                                       std::vector<StoredEvent> &rows)
{
    return PgExactPairLookup::findPairs(m_connection, community, pairs, deleted, rows);
}

ReadStatus PgReadConnection::findIds(const std::string &community, std::span<const std::string> ids,
                                     std::vector<StoredEvent> &rows)
{
    return PgExactPairLookup::findIds(m_connection, community, ids, rows);
}

int PgReadConnection::exportPage(const std::string &community, ExportCursor &cursor, int limit,
                                 const std::function<void(const StoredEvent &)> &sink,
                                 std::string &error)
{
    // The primary key (community, created_at, id) is this order: each page is an index range.
    const std::string sql = std::string("SELECT ") + PgEventReader::kEventColumns
        + " FROM events e WHERE e.community = $1"
        + (cursor.started ? " AND (e.created_at, e.id) > ($2, $3)" : "")
        + " ORDER BY e.created_at, e.id LIMIT " + std::to_string(limit);
    PgParams params;
    params.text(community);
    if (cursor.started)
        params.timestamp(cursor.createdAt).bytes(cursor.id);
    PgResult page = m_connection.run(sql, params);
    if (!page.ok()) {
        error = page.message();
        return -1;
    }
    for (int row = 0; row < page.rows(); ++row) {
        StoredEvent stored = PgEventReader::rowToStoredEvent(page, row);
        cursor.started = true;
        cursor.createdAt = stored.event.createdAt;
        cursor.id = std::string(page.bytes(row, 2));
        sink(stored);
    }
    return page.rows();
}

} // namespace buzz::relay::store
