#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::store {

class SqliteConnection;

// A consistent copy of a whole database (SQLite's online backup, in one step, so one read
// transaction on the source): what a replica seeds itself from when it starts, or when the
// records it would replay have been trimmed from the commit log.
class StoreSnapshot
{
public:
    // Replaces everything in `destination` with `source`'s content. Returns the LSN the copy holds
    // (its newest commit-log record, 0 for an empty log), nullopt with `error` on failure.
    static std::optional<std::int64_t> copy(SqliteConnection &source, SqliteConnection &destination,
                                            std::string &error);
};

} // namespace buzz::relay::store
