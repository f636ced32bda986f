#include "relay/store/SchemaMigration.h"

#include "relay/store/sqlite/SqliteConnection.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace buzz::relay::store {

namespace {
// Rowids are kept: event_tags and the full-text queue refer to events by rowid. hex_key() gives
// NULL for anything that is not lower-case hex, so a damaged row fails the NOT NULL constraint and
// the whole migration rolls back rather than storing a wrong key.
constexpr const char *kFromVersion1 = R"SQL(
CREATE TABLE events_v2 (
    community   TEXT    NOT NULL,
    id          BLOB    NOT NULL,
    created_at  INTEGER NOT NULL,
    kind        INTEGER NOT NULL,
    pubkey      BLOB    NOT NULL,
    channel     TEXT,
    deleted_at  INTEGER,
    d_tag       TEXT,
    received_at INTEGER NOT NULL,
    sig         BLOB    NOT NULL,
    tags        TEXT    NOT NULL,
    content     TEXT    NOT NULL
);
INSERT INTO events_v2 (rowid, community, id, created_at, kind, pubkey, channel, deleted_at, d_tag,
                       received_at, sig, tags, content)
    SELECT rowid, community, hex_key(id), created_at, kind, hex_key(pubkey), channel, deleted_at,
           d_tag, received_at, hex_key(sig), tags, content
    FROM events ORDER BY rowid;
DROP TABLE events;
ALTER TABLE events_v2 RENAME TO events;

DELETE FROM event_tags WHERE name = 'h';

CREATE TABLE thread_metadata_v2 (
    community  TEXT    NOT NULL,
    event_id   BLOB    NOT NULL,
    root_id    BLOB    NOT NULL,
    parent_id  BLOB    NOT NULL,
    depth      INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (community, event_id)
) WITHOUT ROWID;
INSERT INTO thread_metadata_v2 (community, event_id, root_id, parent_id, depth, created_at)
    SELECT community, hex_key(event_id), hex_key(root_id), hex_key(parent_id), depth, created_at
    FROM thread_metadata;
DROP TABLE thread_metadata;
ALTER TABLE thread_metadata_v2 RENAME TO thread_metadata;
)SQL";

// A channel row goes only when the channel is deleted (kind 9008), and every channel leaves events
// behind (its own 9007, the relay's 40099 channel_created, live or soft-deleted): a channel id on
// an event with no channels row is a deleted one. One scan of events, once.
constexpr const char *kRetireDeletedChannels = R"SQL(
INSERT OR IGNORE INTO retired_channels (community, uuid, retired_at)
    SELECT e.community, e.channel, MAX(e.created_at) FROM events e
    WHERE e.channel IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM channels c WHERE c.community = e.community AND c.uuid = e.channel)
    GROUP BY e.community, e.channel;
)SQL";

std::int64_t single(SqliteConnection &connection, const char *sql)
{
    auto statement = connection.prepare(sql);
    return statement.valid() && statement.step() ? statement.int64(0) : -1;
}

bool hasColumn(SqliteConnection &connection, const char *table, const char *column)
{
    auto columns = connection.prepare(std::string("SELECT 1 FROM pragma_table_info('") + table
                                      + "') WHERE name = '" + column + "'");
    return columns.valid() && columns.step();
}
} // namespace

bool SchemaMigration::fromVersion(SqliteConnection &connection, int version)
{
    if (version == 2 || version == 3)
        return true; // only tables and columns to add: afterSchema does
    if (version != 1)
        return false;
    const std::int64_t events = single(connection, "SELECT count(*) FROM events");
    qCInfo(lcStore) << "migrating the relay database from schema version 1:" << events << "events";
    return connection.exec(kFromVersion1)
        && single(connection, "SELECT count(*) FROM events") == events;
}

bool SchemaMigration::afterSchema(SqliteConnection &connection, int version)
{
    if (version <= 2) {
        if (!connection.exec(kRetireDeletedChannels))
            return false;
        qCInfo(lcStore) << "retired the ids of"
                        << single(connection, "SELECT count(*) FROM retired_channels")
                        << "deleted channels";
    }
    // The table kept its older layout (CREATE TABLE IF NOT EXISTS left it as it was).
    if (version <= 3 && !hasColumn(connection, "channel_members", "removed_by")
        && !connection.exec("ALTER TABLE channel_members ADD COLUMN removed_by TEXT"))
        return false;
    return true;
}

} // namespace buzz::relay::store
