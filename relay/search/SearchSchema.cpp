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
constexpr const char *kIndexVersion = "1";

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

std::string schemaSql()
{
    return std::string(R"SQL(
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    body, id UNINDEXED, created_at UNINDEXED, community UNINDEXED, channel UNINDEXED,
    kind UNINDEXED, pubkey UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS search_fts_on_insert AFTER INSERT ON events
WHEN new.kind IN )SQL")
        + kIndexedKindList + R"SQL( AND new.deleted_at IS NULL BEGIN
    INSERT INTO search_fts (rowid, body, id, created_at, community, channel, kind, pubkey)
    VALUES (new.rowid, )SQL"
        + bodyExpression("new") + R"SQL(, new.id, new.created_at,
            new.community, new.channel, new.kind, new.pubkey);
END;
CREATE TRIGGER IF NOT EXISTS search_fts_on_soft_delete AFTER UPDATE OF deleted_at ON events
WHEN old.deleted_at IS NULL AND new.deleted_at IS NOT NULL BEGIN
    DELETE FROM search_fts WHERE rowid = new.rowid;
END;
)SQL";
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
        && connection.exec("DELETE FROM search_fts") && connection.exec(backfillSql().c_str())
        && connection.exec("INSERT OR REPLACE INTO relay_meta (key, value) VALUES "
                           "('search_index_version', '1')");
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
