#pragma once

namespace buzz::relay::store {

class SqliteConnection;

// Creates (idempotently) the tables and indexes shared by the writer and, later, every replica.
class Schema
{
public:
    static bool apply(SqliteConnection &connection);
    // Work every write transaction must do just before its COMMIT (the search index flush).
    static bool beforeCommit(SqliteConnection &connection);
    static constexpr int kVersion = 1;
};

} // namespace buzz::relay::store
