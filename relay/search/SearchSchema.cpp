#include "relay/search/SearchSchema.h"

#include "relay/store/SqliteConnection.h"

#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <string>

Q_LOGGING_CATEGORY(lcSearchSchema, "buzz.relay.search.schema")

namespace buzz::relay::search {

namespace {
constexpr std::array kIndexedKinds = {0, 1, 9, 40002, 40003, 40100, 45001, 45003};
constexpr const char *kIndexedKindList = "(0, 1, 9, 40002, 40003, 40100, 45001, 45003)";
// 2: inserts queue their rowid in search_pending and the queue is indexed once per transaction
// (flushPending) rather than by a trigger per row.
constexpr const char *kIndexVersion = "2";

// Kind 0 content is JSON: its display_name, name and nip05 values are appended as plain words so
// a name search tokenises them like any text (reference §3.7). Invalid JSON is indexed as is.
std::string bodyExpression(const char *row)
{
    const std::string r(row);
    auto field = [&](const char *key) {
        return "COALESCE(json_extract(" + r + ".content, '$." + key + "'), '')";
    };
    return "CASE WHEN " + r + ".kind = 0 AND json_valid(" + r + ".content) THEN " + r
        + ".content || ' ' || " + field("display_name") + " || ' ' || " + field("name")
        + " || ' ' || " + field("nip05") + " ELSE " + r + ".content END";
}

// `kind = 0 OR kind = 1 OR …` rather than `kind IN (0, 1, …)`: SQLite builds a temporary b-tree
// for an IN list of more than two values every time the trigger fires (about 5 µs per insert).
std::string indexedKindTest(const char *column)
{
    std::string test;
    for (const int kind : kIndexedKinds)
        test += (test.empty() ? "" : " OR ") + std::string(column) + " = " + std::to_string(kind);
    return test;
}

std::string schemaSql()
{
    // FTS5 flushes its pending terms to new index segments at every SAVEPOINT and COMMIT, and the
    // writer runs each ingest under its own savepoint (group commit): indexing inside the savepoint
    // would write a segment per event. So an insert only queues its rowid (a rolled-back savepoint
    // takes its queue entries with it) and flushPending indexes the queue in one go.
    return std::string(R"SQL(
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    body, id UNINDEXED, created_at UNINDEXED, community UNINDEXED, channel UNINDEXED,
    kind UNINDEXED, pubkey UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS search_pending (event_rowid INTEGER PRIMARY KEY);
DROP TRIGGER IF EXISTS search_fts_on_insert;
DROP TRIGGER IF EXISTS search_pending_on_insert;
CREATE TRIGGER search_pending_on_insert AFTER INSERT ON events
WHEN ()SQL")
        + indexedKindTest("new.kind") + R"SQL() AND new.deleted_at IS NULL BEGIN
    INSERT OR IGNORE INTO search_pending (event_rowid) VALUES (new.rowid);
END;
DROP TRIGGER IF EXISTS search_fts_on_soft_delete;
CREATE TRIGGER IF NOT EXISTS search_on_soft_delete AFTER UPDATE OF deleted_at ON events
WHEN old.deleted_at IS NULL AND new.deleted_at IS NOT NULL BEGIN
    DELETE FROM search_pending WHERE event_rowid = new.rowid;
    DELETE FROM search_fts WHERE rowid = new.rowid;
END;
)SQL";
}

std::string indexPendingSql()
{
    return "INSERT INTO search_fts (rowid, body, id, created_at, community, channel, kind, pubkey) "
           "SELECT e.rowid, "
        + bodyExpression("e")
        + ", e.id, e.created_at, e.community, e.channel, e.kind, e.pubkey FROM search_pending p "
          "JOIN events e ON e.rowid = p.event_rowid WHERE e.deleted_at IS NULL ORDER BY "
          "p.event_rowid";
}

std::string backfillSql()
{
    return "INSERT INTO search_fts (rowid, body, id, created_at, community, channel, kind, pubkey) "
           "SELECT e.rowid, "
        + bodyExpression("e")
        + ", e.id, e.created_at, e.community, e.channel, e.kind, e.pubkey FROM events e "
          "WHERE e.kind IN "
        + kIndexedKindList + " AND e.deleted_at IS NULL";
}
} // namespace

bool SearchSchema::isIndexedKind(int kind)
{
    return std::find(kIndexedKinds.begin(), kIndexedKinds.end(), kind) != kIndexedKinds.end();
}

bool SearchSchema::flushPending(store::SqliteConnection &connection)
{
    {
        auto pending = connection.prepare("SELECT 1 FROM search_pending LIMIT 1");
        if (!pending.valid())
            return false;
        if (!pending.step())
            return pending.ok(); // nothing queued: the common case for non-text writes
    }
    auto index = connection.prepare(indexPendingSql());
    auto clear = connection.prepare("DELETE FROM search_pending");
    return index.valid() && clear.valid() && index.run() && clear.run();
}

std::int64_t SearchSchema::pendingCount(store::SqliteConnection &connection)
{
    auto count = connection.prepare("SELECT count(*) FROM search_pending");
    if (!count.valid() || !count.step())
        return -1;
    return count.int64(0);
}

bool SearchSchema::apply(store::SqliteConnection &connection)
{
    bool indexed = false;
    {
        auto version =
            connection.prepare("SELECT value FROM relay_meta WHERE key = 'search_index_version'");
        indexed = version.step() && version.text(0) == kIndexVersion;
    }
    if (indexed)
        return connection.exec(schemaSql().c_str());
    // First time on this database: table, triggers and the rows written before them, atomically.
    if (!connection.exec("SAVEPOINT search_schema"))
        return false;
    const bool ok = connection.exec(schemaSql().c_str())
        && connection.exec("DELETE FROM search_fts")
        && connection.exec("DELETE FROM search_pending") && connection.exec(backfillSql().c_str())
        && connection.exec((std::string("INSERT OR REPLACE INTO relay_meta (key, value) VALUES "
                                        "('search_index_version', '")
                            + kIndexVersion + "')")
                               .c_str());
    if (!ok) {
        qCWarning(lcSearchSchema) << "cannot create the search index:"
                                  << connection.lastError().c_str();
        connection.exec("ROLLBACK TO search_schema");
        connection.exec("RELEASE search_schema");
        return false;
    }
    return connection.exec("RELEASE search_schema");
}

} // namespace buzz::relay::search
