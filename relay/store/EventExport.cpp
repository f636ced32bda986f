#include "relay/store/EventExport.h"

#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventReader.h"
#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"

namespace buzz::relay::store {

bool EventExport::forEach(const ConnectionLease &lease, const std::string &community,
                          const Sink &sink, std::string &error)
{
    if (!lease) {
        error = "no database connection";
        return false;
    }
    Cursor cursor;
    for (;;) {
        const int rows = lease.sqlite() ? sqlitePage(lease, community, cursor, sink, error)
                                        : postgresPage(lease, community, cursor, sink, error);
        if (rows < 0)
            return false;
        if (rows < kPageRows)
            return true;
    }
}

int EventExport::sqlitePage(const ConnectionLease &lease, const std::string &community,
                            Cursor &cursor, const Sink &sink, std::string &error)
{
    SqliteConnection &connection = *lease.sqlite();
    auto select = connection.prepare(
        std::string("SELECT ") + SqliteEventReader::kEventColumns
        + " FROM events e WHERE e.community = ?1 AND (?2 = 0 OR e.created_at > ?3 OR "
          "(e.created_at = ?3 AND e.id > ?4)) ORDER BY e.created_at, e.id LIMIT "
        + std::to_string(kPageRows));
    if (!select.valid()) {
        error = connection.lastError();
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
        error = connection.lastError();
        return -1;
    }
    return rows;
}

int EventExport::postgresPage(const ConnectionLease &lease, const std::string &community,
                              Cursor &cursor, const Sink &sink, std::string &error)
{
    PgConnection &connection = *lease.postgres();
    // The primary key (community, created_at, id) is this order: each page is an index range.
    const std::string sql = std::string("SELECT ") + PgEventReader::kEventColumns
        + " FROM events e WHERE e.community = $1"
        + (cursor.started ? " AND (e.created_at, e.id) > ($2, $3)" : "")
        + " ORDER BY e.created_at, e.id LIMIT " + std::to_string(kPageRows);
    PgParams params;
    params.text(community);
    if (cursor.started)
        params.timestamp(cursor.createdAt).bytes(cursor.id);
    PgResult page = connection.run(sql, params);
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
