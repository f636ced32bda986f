#include "relay/store/postgres/PgSchema.h"

#include "relay/store/postgres/PgConnection.h"

#include <ctime>
#include <vector>

namespace buzz::relay::store {

namespace {
// The text NIP-50 search indexes: the content, for a kind 0 with its display_name, name and nip05
// appended as plain words (docs/buzz-protocol.md §Profiles; invalid JSON is indexed as it is, never
// an error: a generated column that raised would refuse the insert), split into words as on SQLite.
constexpr const char *kFunctions = R"SQL(
CREATE OR REPLACE FUNCTION buzz_search_body(kind integer, content text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE profile jsonb;
BEGIN
    IF kind = 0 THEN
        BEGIN
            profile := content::jsonb;
        EXCEPTION WHEN others THEN
            profile := NULL;
        END;
        IF jsonb_typeof(profile) = 'object' THEN
            content := content || ' ' || coalesce(profile ->> 'display_name', '') || ' '
                || coalesce(profile ->> 'name', '') || ' ' || coalesce(profile ->> 'nip05', '');
        END IF;
    END IF;
    -- Words as SQLite's unicode61 tokenizer makes them: every ASCII character that is not a
    -- letter or digit separates (alice@wonder.land is three words), other text stays in words.
    RETURN regexp_replace(content, '[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+', ' ', 'g');
END
$$;
)SQL";

// Every row carries its community. created_at is the partition key, so it leads the primary key
// (an id names one event, and its created_at is part of what the id hashes, so (community,
// created_at, id) is as unique as (community, id)). The indexes, each for a statement the relay
// runs (PgStorePlans in the tests shows every plan):
//   events_pkey            (community, created_at, id)  exact-pair hydration, channel-create replay
//   events_by_id           (community, id)        id lookups without a timestamp (ids filters,
//                                                 e/reaction/deletion targets, soft delete)
//   events_by_kind         (community, kind, …)   kinds filters with no channel
//   events_by_pubkey       (community, pubkey, …) authors filters, replaceable lookups
//   events_by_channel_kind (…, channel, kind, …)  canvas head and history, one-kind channel pages
//   events_by_channel_time (…, channel, time)     channel scroll-back over many kinds
//   events_by_address      (…, kind, pubkey, d)   addressable lookups
//   events_search          GIN (search_vector)    NIP-50 search
constexpr const char *kTables = R"SQL(
CREATE TABLE IF NOT EXISTS relay_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    community     text        NOT NULL,
    created_at    timestamptz NOT NULL,
    id            bytea       NOT NULL,
    kind          integer     NOT NULL,
    pubkey        bytea       NOT NULL,
    channel       text,
    deleted_at    timestamptz,
    d_tag         text,
    received_at   timestamptz NOT NULL,
    sig           bytea       NOT NULL,
    tags          jsonb       NOT NULL,
    content       text        NOT NULL,
    search_vector tsvector GENERATED ALWAYS AS (
        CASE WHEN kind IN (0, 1, 9, 40002, 40003, 40100, 45001, 45003)
             THEN to_tsvector('simple'::regconfig, buzz_search_body(kind, content)) END) STORED,
    PRIMARY KEY (community, created_at, id)
) PARTITION BY RANGE (created_at);
CREATE INDEX IF NOT EXISTS events_by_id ON events (community, id);
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
CREATE INDEX IF NOT EXISTS events_search ON events USING gin (search_vector)
    WHERE search_vector IS NOT NULL AND deleted_at IS NULL;

-- Tags of one letter other than h (a #h filter reads events.channel), for the #x filters.
CREATE TABLE IF NOT EXISTS event_tags (
    community        text        NOT NULL,
    name             text        NOT NULL,
    value            text        NOT NULL,
    event_created_at timestamptz NOT NULL,
    event_id         bytea       NOT NULL,
    PRIMARY KEY (community, name, value, event_created_at, event_id)
);

CREATE TABLE IF NOT EXISTS thread_metadata (
    community        text        NOT NULL,
    event_id         bytea       NOT NULL,
    event_created_at timestamptz NOT NULL,
    root_id          bytea       NOT NULL,
    parent_id        bytea       NOT NULL,
    depth            integer     NOT NULL,
    PRIMARY KEY (community, event_id)
);
CREATE INDEX IF NOT EXISTS thread_by_root
    ON thread_metadata (community, root_id, event_created_at, event_id);

CREATE TABLE IF NOT EXISTS channels (
    community       text    NOT NULL,
    uuid            text    NOT NULL,
    name            text    NOT NULL,
    visibility      text    NOT NULL,
    channel_type    text    NOT NULL,
    about           text    NOT NULL DEFAULT '',
    topic           text,
    purpose         text,
    ttl             bigint,
    archived        boolean NOT NULL DEFAULT false,
    created_by      text    NOT NULL,
    created_at      bigint  NOT NULL,
    create_event_id text    NOT NULL,
    PRIMARY KEY (community, uuid)
);

CREATE TABLE IF NOT EXISTS channel_members (
    community  text   NOT NULL,
    channel    text   NOT NULL,
    pubkey     text   NOT NULL,
    role       text   NOT NULL,
    joined_at  bigint NOT NULL,
    removed_at bigint,
    removed_by text,
    PRIMARY KEY (community, channel, pubkey)
);
-- pg-3: who removed a member (store/SchemaMigration.h); earlier tables gain the column here.
ALTER TABLE channel_members ADD COLUMN IF NOT EXISTS removed_by text;
CREATE INDEX IF NOT EXISTS members_by_pubkey
    ON channel_members (community, pubkey) WHERE removed_at IS NULL;

-- The ids of deleted channels (kind 9008), never used again (store/sqlite/SqliteSchema.cpp says why).
CREATE TABLE IF NOT EXISTS retired_channels (
    community  text   NOT NULL,
    uuid       text   NOT NULL,
    retired_at bigint NOT NULL,
    PRIMARY KEY (community, uuid)
);

CREATE TABLE IF NOT EXISTS reactions (
    community text NOT NULL,
    target_id text NOT NULL,
    pubkey    text NOT NULL,
    emoji     text NOT NULL,
    event_id  text NOT NULL,
    PRIMARY KEY (community, target_id, pubkey, emoji)
);
CREATE INDEX IF NOT EXISTS reactions_by_event ON reactions (community, event_id);

-- The replica freshness probe (docs/architecture.md §The fence): one row the writer's
-- heartbeat updates every 500 ms and a standby read reads back as its first statement.
CREATE TABLE IF NOT EXISTS replica_heartbeat (
    id              integer PRIMARY KEY CHECK (id = 1),
    token           bigint  NOT NULL,
    epoch           bigint  NOT NULL,
    fence_wall      bigint  NOT NULL,
    committed_at_ms bigint  NOT NULL
);
INSERT INTO replica_heartbeat (id, token, epoch, fence_wall, committed_at_ms)
    VALUES (1, 0, 0, 0, 0) ON CONFLICT (id) DO NOTHING;

-- Live fan-out across the relay processes on this database (relay/README.md "Live fan-out
-- across processes"): one row per event a group commit made visible, numbered in commit order
-- (the writers take an advisory lock for it), the wire JSON only for an event stored nowhere
-- else (kind 20002). A NOTIFY carries the newest number; listeners read the rows after theirs.
CREATE TABLE IF NOT EXISTS fanout_log (
    seq        bigserial   PRIMARY KEY,
    origin     text        NOT NULL,
    community  text        NOT NULL,
    created_at timestamptz NOT NULL,
    event_id   bytea       NOT NULL,
    channel    text,
    event_json text
);

-- What every relay process on this database shares for a short while (relay/README.md "Several
-- processes on one PostgreSQL"): presence statuses (90 s) and NIP-98 ids (121 s). UNLOGGED: not
-- worth a WAL record each, and a crash or a failover forgetting them costs a client one
-- heartbeat, or leaves a token its last seconds.
CREATE UNLOGGED TABLE IF NOT EXISTS presence (
    community   text   NOT NULL,
    pubkey      text   NOT NULL,
    status      text   NOT NULL,
    created_at  bigint NOT NULL,
    received_at bigint NOT NULL,
    PRIMARY KEY (community, pubkey)
);
CREATE UNLOGGED TABLE IF NOT EXISTS nip98_replays (
    id      text   PRIMARY KEY,
    seen_at bigint NOT NULL
);
)SQL";

// Schema pg-1 had no retired_channels: a channel id on an event with no channels row is a channel
// deleted before (store/SchemaMigration.cpp says why). One scan of events, once.
constexpr const char *kPgRetireDeletedChannels = R"SQL(
INSERT INTO retired_channels (community, uuid, retired_at)
    SELECT e.community, e.channel, MAX(extract(epoch FROM e.created_at))::bigint FROM events e
    WHERE e.channel IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM channels c WHERE c.community = e.community AND c.uuid = e.channel)
    GROUP BY e.community, e.channel
ON CONFLICT DO NOTHING;
)SQL";

std::string quoteTimestamp(std::int64_t unixSeconds)
{
    char text[40];
    const std::time_t seconds = static_cast<std::time_t>(unixSeconds);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    std::strftime(text, sizeof text, "'%Y-%m-%d %H:%M:%S+00'", &utc);
    return text;
}

// Whether a relation of this name exists in the current schema.
bool exists(PgConnection &connection, const std::string &name, bool &ok)
{
    PgResult found =
        connection.run("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = current_schema() AND c.relname = $1",
                       PgParams().text(name));
    ok = found.ok();
    return found.rows() > 0;
}

// Start of events_future (its lower bound), or 0 when it does not exist yet.
std::int64_t futureStart(PgConnection &connection, bool &ok)
{
    PgResult bound = connection.run(
        "SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]"
        "::timestamptz FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relname = 'events_future'");
    ok = bound.ok();
    if (!ok || bound.rows() == 0 || bound.isNull(0, 0))
        return 0;
    return bound.int64(0, 0);
}
} // namespace

std::int64_t PgSchema::monthStart(std::int64_t unixSeconds, int months)
{
    const std::time_t seconds = static_cast<std::time_t>(unixSeconds);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    int month = utc.tm_mon + months; // 0-based, may leave 0..11
    int year = utc.tm_year + 1900 + (month >= 0 ? month / 12 : (month - 11) / 12);
    month = ((month % 12) + 12) % 12;
    std::tm first {};
    first.tm_year = year - 1900;
    first.tm_mon = month;
    first.tm_mday = 1;
    return static_cast<std::int64_t>(timegm(&first));
}

std::string PgSchema::monthName(std::int64_t monthStartSec)
{
    const std::time_t seconds = static_cast<std::time_t>(monthStartSec);
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    char name[32];
    std::strftime(name, sizeof name, "events_p%Y_%m", &utc);
    return name;
}

std::string PgSchema::partitionFor(std::int64_t unixSeconds, std::int64_t lastMonthStartSec)
{
    std::tm first {};
    first.tm_year = kFirstYear - 1900;
    first.tm_mon = kFirstMonth - 1;
    first.tm_mday = 1;
    if (unixSeconds < timegm(&first))
        return "events_past";
    if (unixSeconds >= monthStart(lastMonthStartSec, 1))
        return "events_future";
    return monthName(monthStart(unixSeconds));
}

bool PgSchema::apply(PgConnection &connection, std::int64_t nowSec, std::string &error)
{
    const auto fail = [&](const std::string &what) {
        error = what + ": " + connection.lastError();
        connection.exec("ROLLBACK");
        return false;
    };
    if (!connection.execOk("BEGIN"))
        return fail("schema");
    // One relay at a time changes the schema of a database (schema, partitions).
    if (!connection.execOk("SELECT pg_advisory_xact_lock(4242017)"))
        return fail("schema lock");
    bool ok = true;
    std::string stored;
    if (exists(connection, "relay_meta", ok)) {
        PgResult version =
            connection.exec("SELECT value FROM relay_meta WHERE key = 'schema_version'");
        if (!version.ok())
            return fail("schema");
        if (version.rows() > 0)
            stored = version.text(0, 0);
        if (!stored.empty() && stored != kVersion && stored != "pg-1" && stored != "pg-2") {
            error = "relay database has schema version " + stored + ", not this relay's " + kVersion
                + "; it is left untouched";
            connection.exec("ROLLBACK");
            return false;
        }
    }
    if (!ok)
        return fail("schema");
    if (!connection.execOk(kFunctions) || !connection.execOk(kTables))
        return fail("schema");
    // pg-1 → pg-2: the tables above are new; they learn the old rows in this transaction.
    if (stored == "pg-1" && !connection.execOk(kPgRetireDeletedChannels))
        return fail("schema migration from pg-1");

    std::tm first {};
    first.tm_year = kFirstYear - 1900;
    first.tm_mon = kFirstMonth - 1;
    first.tm_mday = 1;
    const std::int64_t firstMonth = timegm(&first);
    const std::int64_t wantedEnd = monthStart(std::max(nowSec, firstMonth), kFutureMonths + 1);
    if (!exists(connection, "events_past", ok) && ok
        && !connection.execOk("CREATE TABLE events_past PARTITION OF events FOR VALUES FROM "
                              "(MINVALUE) TO ("
                              + quoteTimestamp(firstMonth) + ")"))
        return fail("partition events_past");
    if (!ok)
        return fail("schema");
    std::int64_t from = futureStart(connection, ok);
    if (!ok)
        return fail("schema");
    const bool haveFuture = from != 0;
    if (!haveFuture)
        from = firstMonth;
    if (from < wantedEnd) {
        // The months between the current future bound and the wanted one become partitions of
        // their own; rows already in events_future for them move with it.
        if (haveFuture && !connection.execOk("ALTER TABLE events DETACH PARTITION events_future"))
            return fail("detach events_future");
        for (std::int64_t month = from; month < wantedEnd; month = monthStart(month, 1)) {
            const std::string name = monthName(month);
            if (!connection.execOk("CREATE TABLE " + name + " PARTITION OF events FOR VALUES FROM ("
                                   + quoteTimestamp(month) + ") TO ("
                                   + quoteTimestamp(monthStart(month, 1)) + ")"))
                return fail("partition " + name);
        }
        if (haveFuture) {
            if (!connection.execOk("INSERT INTO events (community, created_at, id, kind, pubkey, "
                                   "channel, deleted_at, d_tag, received_at, sig, tags, content) "
                                   "SELECT community, created_at, id, kind, pubkey, channel, "
                                   "deleted_at, d_tag, received_at, sig, tags, content FROM "
                                   "events_future WHERE created_at < "
                                   + quoteTimestamp(wantedEnd))
                || !connection.execOk("DELETE FROM events_future WHERE created_at < "
                                      + quoteTimestamp(wantedEnd))
                || !connection.execOk("ALTER TABLE events ATTACH PARTITION events_future FOR "
                                      "VALUES FROM ("
                                      + quoteTimestamp(wantedEnd) + ") TO (MAXVALUE)"))
                return fail("events_future");
        } else if (!connection.execOk("CREATE TABLE events_future PARTITION OF events FOR VALUES "
                                      "FROM ("
                                      + quoteTimestamp(wantedEnd) + ") TO (MAXVALUE)")) {
            return fail("partition events_future");
        }
    }
    if (!connection.execOk(std::string("INSERT INTO relay_meta (key, value) VALUES "
                                       "('schema_version', '")
                           + kVersion + "') ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        || !connection.execOk("COMMIT"))
        return fail("schema");
    return true;
}

} // namespace buzz::relay::store
