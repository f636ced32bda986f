#include "relay/store/sqlite/SqliteSchema.h"

#include "relay/store/SchemaMigration.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace buzz::relay::store {

namespace {
// Schema 2. Every row carries its community. The event is stored once, as its fields: the wire
// JSON is rebuilt from them on read (SqliteEventReader), byte for byte what Event::toJson wrote.
// Ids, pubkeys and signatures are BLOBs (HexKey: byte order = lower-case hex order, the wire order
// of `ORDER BY created_at DESC, id ASC`); large columns come last so the ones the queries filter on
// sit at the start of the record.
//
// Each index on events serves a query that uses it (test_store_schema proves every plan):
//   events_by_id           (community, id)        dedupe on insert, ids filters, e-tag targets,
//                                                 exact-pair and id hydration, soft delete
//   events_by_kind         (community, kind, …)   kinds filters with no channel (metadata, feeds)
//   events_by_pubkey       (community, pubkey, …) authors filters, replaceable-event lookups
//   events_by_channel_kind (…, channel, kind, …)  canvas head and history, one-kind channel pages
//   events_by_channel_time (…, channel, time)     channel scroll-back over many kinds
//   events_by_address      (…, kind, pubkey, d)   addressable-event lookups (relay-signed 3900x)
// Deleted rows leave every index but events_by_id (no read but the by-id lookups asks for them),
// and global rows stay out of the channel indexes. No index orders all of a community by time: a
// filter without kinds is admitted only with ids or a #p of the reader's own (AccessPolicy), which
// events_by_id and event_tags answer.
constexpr const char *kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS events (
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
CREATE UNIQUE INDEX IF NOT EXISTS events_by_id ON events (community, id);
CREATE INDEX IF NOT EXISTS events_by_kind
    ON events (community, kind, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_pubkey
    ON events (community, pubkey, kind, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_channel_kind
    ON events (community, channel, kind, created_at DESC, id)
    WHERE channel IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_channel_time
    ON events (community, channel, created_at DESC, id)
    WHERE channel IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_address
    ON events (community, kind, pubkey, d_tag, created_at DESC, id)
    WHERE d_tag IS NOT NULL AND deleted_at IS NULL;

-- Tags of one letter other than h (a #h filter reads events.channel), for the #x filters.
CREATE TABLE IF NOT EXISTS event_tags (
    event_rowid INTEGER NOT NULL,
    community   TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    PRIMARY KEY (community, name, value, event_rowid)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS thread_metadata (
    community  TEXT    NOT NULL,
    event_id   BLOB    NOT NULL,
    root_id    BLOB    NOT NULL,
    parent_id  BLOB    NOT NULL,
    depth      INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (community, event_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS thread_by_root ON thread_metadata (community, root_id, created_at, event_id);

CREATE TABLE IF NOT EXISTS channels (
    community       TEXT    NOT NULL,
    uuid            TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    visibility      TEXT    NOT NULL,
    channel_type    TEXT    NOT NULL,
    about           TEXT    NOT NULL DEFAULT '',
    topic           TEXT,
    purpose         TEXT,
    ttl             INTEGER,
    archived        INTEGER NOT NULL DEFAULT 0,
    created_by      TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    create_event_id TEXT    NOT NULL,
    PRIMARY KEY (community, uuid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS channels_by_visibility ON channels (community, visibility);

CREATE TABLE IF NOT EXISTS channel_members (
    community  TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    pubkey     TEXT    NOT NULL,
    role       TEXT    NOT NULL,
    joined_at  INTEGER NOT NULL,
    removed_at INTEGER,
    removed_by TEXT,
    PRIMARY KEY (community, channel, pubkey)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS members_by_pubkey ON channel_members (community, pubkey) WHERE removed_at IS NULL;

-- The ids of deleted channels (kind 9008). An id stays retired: a kind 9007 naming it is a
-- duplicate, so no new channel ever inherits what the deleted one held (its events keep their
-- channel id and are readable by nobody, as no channels row grants access to them).
CREATE TABLE IF NOT EXISTS retired_channels (
    community  TEXT    NOT NULL,
    uuid       TEXT    NOT NULL,
    retired_at INTEGER NOT NULL,
    PRIMARY KEY (community, uuid)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS reactions (
    community TEXT NOT NULL,
    target_id TEXT NOT NULL,
    pubkey    TEXT NOT NULL,
    emoji     TEXT NOT NULL,
    event_id  TEXT NOT NULL,
    PRIMARY KEY (community, target_id, pubkey, emoji)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reactions_by_event ON reactions (community, event_id);

-- What replicas replay, one record per write transaction, in LSN order.
CREATE TABLE IF NOT EXISTS commit_log (
    lsn             INTEGER PRIMARY KEY,
    committed_at_ms INTEGER NOT NULL,
    change          TEXT    NOT NULL
);

CREATE TABLE IF NOT EXISTS relay_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
)SQL";

// The schema version a database was written with: 0 for a new one (no events table yet), 1 for
// one written before relay_meta carried a version.
std::optional<int> storedVersion(SqliteConnection &connection)
{
    auto events =
        connection.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'events'");
    if (!events.valid())
        return std::nullopt;
    if (!events.step())
        return events.ok() ? std::optional<int>(0) : std::nullopt;
    auto meta = connection.prepare(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'relay_meta'");
    if (!meta.valid() || !meta.step())
        return 1;
    auto version = connection.prepare("SELECT value FROM relay_meta WHERE key = 'schema_version'");
    if (!version.valid())
        return std::nullopt;
    return version.step() ? std::atoi(std::string(version.text(0)).c_str()) : 1;
}
} // namespace

bool SqliteSchema::apply(SqliteConnection &connection, const StoreExtensions &extensions,
                         std::string *error)
{
    const std::optional<int> version = storedVersion(connection);
    const bool migrate = version && *version > 0 && *version < kVersion;
    const auto fail = [&](std::string message) {
        if (error)
            *error = std::move(message);
        if (migrate)
            connection.exec("ROLLBACK");
        return false;
    };
    if (!version)
        return fail("schema: " + connection.lastError());
    if (*version > kVersion)
        return fail("relay database has schema version " + std::to_string(*version)
                    + ", newer than this relay's " + std::to_string(kVersion)
                    + "; run a newer relay, it is left untouched");
    // A migration, the current schema, its version and every extension's rebuild commit together:
    // a crash part-way leaves the old database exactly as it was.
    if (migrate) {
        if (!connection.exec("BEGIN IMMEDIATE"))
            return fail("schema: " + connection.lastError());
        if (!SchemaMigration::fromVersion(connection, *version))
            return fail("schema migration from version " + std::to_string(*version)
                        + " failed, the database is unchanged: " + connection.lastError());
    }
    if (!connection.exec(kSchema)
        || !connection.exec(("INSERT OR REPLACE INTO relay_meta(key, value) VALUES "
                             "('schema_version', '"
                             + std::to_string(kVersion) + "')")
                                .c_str()))
        return fail("schema: " + connection.lastError());
    if (migrate && !SchemaMigration::afterSchema(connection, *version))
        return fail("schema migration from version " + std::to_string(*version)
                    + " failed, the database is unchanged: " + connection.lastError());
    for (const auto &extension : extensions) {
        if (!extension->applySchema(connection))
            return fail("schema: " + connection.lastError());
    }
    if (!migrate)
        return true;
    if (!connection.exec("COMMIT"))
        return fail("schema: " + connection.lastError());
    if (!SchemaMigration::freesPages(*version))
        return true;
    // The old tables' pages are free now: give them back to the file system once.
    if (!connection.exec("VACUUM")) {
        if (error)
            *error = "schema: compacting after the migration: " + connection.lastError();
        return false;
    }
    return true;
}

bool SqliteSchema::beforeReplayCommit(SqliteConnection &connection,
                                      const StoreExtensions &extensions)
{
    for (const auto &extension : extensions) {
        if (!extension->beforeReplayCommit(connection))
            return false;
    }
    return true;
}

} // namespace buzz::relay::store
