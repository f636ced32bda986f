#include "relay/store/sqlite/SearchSchema.h"

#include "net/nostr/Kinds.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <string>

Q_LOGGING_CATEGORY(lcSearchSchema, "buzz.relay.search.schema")

namespace buzz::relay::store {

namespace {
constexpr std::array kIndexedKinds = {nostr::kinds::kProfile,       nostr::kinds::kTextNote,
                                      nostr::kinds::kStreamMessage, nostr::kinds::kStreamMessageV2,
                                      nostr::kinds::kMessageEdit,   nostr::kinds::kCanvas,
                                      nostr::kinds::kForumPost,     nostr::kinds::kForumComment};
// 2: inserts queue their rowid in search_pending and the queue is indexed once per transaction
// (flushPending) rather than by a trigger per row.
// 3: external content: the index keeps only its terms and reads text from events (through the
// search_source view), instead of a second copy of every searchable row's text and columns.
constexpr const char *kIndexVersion = "3";

// Kind 0 content is JSON: its display_name, name and nip05 values are appended as plain words so
// a name search tokenises them like any text (docs/buzz-protocol.md §Profiles). Invalid JSON is
// indexed as is. Deterministic: a soft delete must hand FTS5 exactly the text that was indexed.
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
    //
    // External content: FTS5 keeps the terms only; the text stays in events. Removing a row from
    // the index needs the text it was indexed with (the 'delete' command), which the soft-deleted
    // row still holds; a row still queued was never indexed and only leaves the queue. The view
    // holds exactly the indexed rows (live, searchable kind, not queued), so what FTS5 reads back
    // from it (a full scan, 'rebuild', 'integrity-check') agrees with the index.
    return std::string(R"SQL(
CREATE TABLE IF NOT EXISTS search_pending (event_rowid INTEGER PRIMARY KEY);
CREATE VIEW IF NOT EXISTS search_source (event_rowid, body) AS
    SELECT e.rowid, )SQL")
        + bodyExpression("e") + " FROM events e WHERE (" + indexedKindTest("e.kind")
        + R"SQL() AND e.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM search_pending p WHERE p.event_rowid = e.rowid);
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    body, content = 'search_source', content_rowid = 'event_rowid',
    tokenize = 'unicode61 remove_diacritics 2');
DROP TRIGGER IF EXISTS search_pending_on_insert;
CREATE TRIGGER search_pending_on_insert AFTER INSERT ON events
WHEN ()SQL"
        + indexedKindTest("new.kind") + R"SQL() AND new.deleted_at IS NULL BEGIN
    INSERT OR IGNORE INTO search_pending (event_rowid) VALUES (new.rowid);
END;
DROP TRIGGER IF EXISTS search_on_soft_delete;
CREATE TRIGGER search_on_soft_delete AFTER UPDATE OF deleted_at ON events
WHEN old.deleted_at IS NULL AND new.deleted_at IS NOT NULL AND ()SQL"
        + indexedKindTest("old.kind") + R"SQL() BEGIN
    INSERT INTO search_fts (search_fts, rowid, body)
        SELECT 'delete', old.rowid, )SQL"
        + bodyExpression("old") + R"SQL(
        WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE event_rowid = old.rowid);
    DELETE FROM search_pending WHERE event_rowid = old.rowid;
END;
)SQL";
}

std::string indexPendingSql()
{
    return "INSERT INTO search_fts (rowid, body) SELECT e.rowid, " + bodyExpression("e")
        + " FROM search_pending p JOIN events e ON e.rowid = p.event_rowid WHERE e.deleted_at IS "
          "NULL ORDER BY p.event_rowid";
}

std::string backfillSql()
{
    return "INSERT INTO search_fts (rowid, body) SELECT e.rowid, " + bodyExpression("e")
        + " FROM events e WHERE (" + indexedKindTest("e.kind")
        + ") AND e.deleted_at IS NULL ORDER BY e.rowid";
}
} // namespace

bool SearchSchema::isIndexedKind(int kind)
{
    return std::find(kIndexedKinds.begin(), kIndexedKinds.end(), kind) != kIndexedKinds.end();
}

bool SearchSchema::flushPending(SqliteConnection &connection)
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

std::int64_t SearchSchema::pendingCount(SqliteConnection &connection)
{
    auto count = connection.prepare("SELECT count(*) FROM search_pending");
    if (!count.valid() || !count.step())
        return -1;
    return count.int64(0);
}

bool SearchSchema::apply(SqliteConnection &connection)
{
    bool indexed = false;
    {
        auto version =
            connection.prepare("SELECT value FROM relay_meta WHERE key = 'search_index_version'");
        indexed = version.step() && version.text(0) == kIndexVersion;
    }
    if (indexed)
        return connection.exec(schemaSql().c_str());
    // First time on this database, or an index of another version: table, triggers and the rows
    // written before them, atomically.
    if (!connection.exec("SAVEPOINT search_schema"))
        return false;
    const bool ok = connection.exec("DROP TABLE IF EXISTS search_fts")
        && connection.exec("DROP VIEW IF EXISTS search_source")
        && connection.exec(schemaSql().c_str()) && connection.exec("DELETE FROM search_pending")
        && connection.exec(backfillSql().c_str())
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

} // namespace buzz::relay::store
