#include "relay/store/Schema.h"

#include "relay/store/SqliteConnection.h"

namespace buzz::relay::store {

namespace {
// Every row carries its community. Hex ids are stored as lower-case TEXT so that byte order equals
// the wire order used by `ORDER BY created_at DESC, id ASC`.
constexpr const char *kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS events (
    community   TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    pubkey      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    kind        INTEGER NOT NULL,
    tags        TEXT    NOT NULL,
    content     TEXT    NOT NULL,
    sig         TEXT    NOT NULL,
    json        TEXT    NOT NULL,
    channel     TEXT,
    d_tag       TEXT,
    received_at INTEGER NOT NULL,
    deleted_at  INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS events_by_id ON events (community, id);
CREATE INDEX IF NOT EXISTS events_by_channel_kind
    ON events (community, channel, kind, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_channel_time
    ON events (community, channel, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_kind ON events (community, kind, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_pubkey
    ON events (community, pubkey, kind, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS events_by_time ON events (created_at, id);
CREATE INDEX IF NOT EXISTS events_by_address ON events (community, kind, pubkey, d_tag) WHERE d_tag IS NOT NULL;

CREATE TABLE IF NOT EXISTS event_tags (
    event_rowid INTEGER NOT NULL,
    community   TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    PRIMARY KEY (community, name, value, event_rowid)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS thread_metadata (
    community  TEXT    NOT NULL,
    event_id   TEXT    NOT NULL,
    root_id    TEXT    NOT NULL,
    parent_id  TEXT    NOT NULL,
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
    PRIMARY KEY (community, channel, pubkey)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS members_by_pubkey ON channel_members (community, pubkey) WHERE removed_at IS NULL;

CREATE TABLE IF NOT EXISTS reactions (
    community TEXT NOT NULL,
    target_id TEXT NOT NULL,
    pubkey    TEXT NOT NULL,
    emoji     TEXT NOT NULL,
    event_id  TEXT NOT NULL,
    PRIMARY KEY (community, target_id, pubkey, emoji)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reactions_by_event ON reactions (community, event_id);

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
} // namespace

bool Schema::apply(SqliteConnection &connection, const StoreExtensions &extensions)
{
    if (!connection.exec(kSchema)
        || !connection.exec("INSERT OR IGNORE INTO relay_meta(key, value) VALUES "
                            "('schema_version', '1')"))
        return false;
    for (const auto &extension : extensions) {
        if (!extension->applySchema(connection))
            return false;
    }
    return true;
}

bool Schema::beforeReplayCommit(SqliteConnection &connection, const StoreExtensions &extensions)
{
    for (const auto &extension : extensions) {
        if (!extension->beforeReplayCommit(connection))
            return false;
    }
    return true;
}

} // namespace buzz::relay::store
