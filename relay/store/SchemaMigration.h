#pragma once

#include <string>

namespace buzz::relay::store {

class SqliteConnection;

// Brings a data directory written by an older relay to the current schema, in place: every event,
// channel, membership, reaction and thread link is kept. Runs inside the caller's transaction
// (SqliteSchema::apply), which also creates the current schema and records its version, so a
// failure or a crash part-way leaves the old database as it was. Version 1 kept each event twice
// (fields as hex text and the whole JSON) with hex ids and indexed every h tag; version 2 keeps the
// fields once, with binary ids, pubkeys and signatures; version 3 adds retired_channels, filled
// from the events every channel deleted before it left; version 4 records who removed a member
// (channel_members.removed_by, unknown for earlier removals). Derived structures of higher layers
// (the full-text index) notice their own version and rebuild in their applySchema.
class SchemaMigration
{
public:
    // Before the current schema is created. False on an SQLite error (lastError() says which) or
    // an unknown version.
    static bool fromVersion(SqliteConnection &connection, int version);
    // After it: fills what the new tables must know about the old rows.
    static bool afterSchema(SqliteConnection &connection, int version);
    // Whether migrating from `version` leaves pages free (then the file is compacted once).
    static bool freesPages(int version) { return version < 2; }
};

} // namespace buzz::relay::store
