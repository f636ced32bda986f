#pragma once

#include "relay/store/StoreExtension.h"

#include <string>

namespace buzz::relay::store {

class SqliteConnection;

// Creates (idempotently) the tables and indexes shared by the writer and every replica, then
// those of each extension, so a replica built by replaying the commit log has the same schema.
// A database written with an older schema version is migrated in place first (SchemaMigration);
// one written by a newer relay is refused and left untouched.
class SqliteSchema
{
public:
    // False on an SQLite error or a refused version; `error` (optional) then says why.
    static bool apply(SqliteConnection &connection, const StoreExtensions &extensions = {},
                      std::string *error = nullptr);
    // Work a replica's replay transaction does just before its COMMIT (each extension's); the
    // writer runs its own before-commit work itself (SqliteStore).
    static bool beforeReplayCommit(SqliteConnection &connection, const StoreExtensions &extensions);
    static constexpr int kVersion = 4;
};

} // namespace buzz::relay::store
