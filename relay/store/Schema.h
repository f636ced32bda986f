#pragma once

#include "relay/store/StoreExtension.h"

namespace buzz::relay::store {

class SqliteConnection;

// Creates (idempotently) the tables and indexes shared by the writer and every replica, then
// those of each extension, so a replica built by replaying the commit log has the same schema.
class Schema
{
public:
    static bool apply(SqliteConnection &connection, const StoreExtensions &extensions = {});
    // Work a replica's replay transaction does just before its COMMIT (each extension's); the
    // writer runs its own before-commit work itself (Database).
    static bool beforeReplayCommit(SqliteConnection &connection, const StoreExtensions &extensions);
    static constexpr int kVersion = 1;
};

} // namespace buzz::relay::store
