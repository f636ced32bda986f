#pragma once

namespace buzz::relay::store {

class SqliteConnection;

// Creates (idempotently) the tables and indexes shared by the writer and, later, every replica.
class Schema
{
public:
    static bool apply(SqliteConnection &connection);
    // Work a replica's replay transaction does just before its COMMIT (the search index flush);
    // the writer batches that flush itself (Database).
    static bool beforeCommit(SqliteConnection &connection);
    static constexpr int kVersion = 1;
};

} // namespace buzz::relay::store
