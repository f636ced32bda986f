#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;

// A structure derived from the rows (the full-text index) that lives in the same database and
// must change in the same transactions as the rows it derives from. The store calls it at fixed
// points and knows nothing else about it, so a higher layer adds one without the store including
// it. The writer calls happen under the writer lock, one at a time; applySchema and
// beforeReplayCommit may run concurrently on different connections (the writer, each replica), so
// they keep no state.
class StoreExtension
{
public:
    virtual ~StoreExtension() = default;

    // Creates its tables and triggers if missing (idempotent), on the writer and every replica.
    virtual bool applySchema(SqliteConnection &connection) = 0;
    // Once, on the writer, after the schema: picks up work an earlier run left deferred.
    virtual bool attachWriter(SqliteConnection &writer) = 0;
    // Inside a writer transaction, just before its COMMIT. The extension may defer its work to a
    // later commit unless `force`; whatever it defers must be done before anything reads it
    // (SqliteStore::flushDeferredWork). False = an SQLite error: the transaction rolls back.
    virtual bool beforeWriterCommit(SqliteConnection &writer, std::int64_t nowMs, bool force) = 0;
    // A writer transaction rolled back: work it had done may be deferred again.
    virtual void writerRolledBack() = 0;
    // Whether work may be deferred (a hint read without the writer lock; true when unsure).
    virtual bool hasDeferredWork() const = 0;
    // Inside a replica's replay transaction, just before its COMMIT: all work, now.
    virtual bool beforeReplayCommit(SqliteConnection &replica) = 0;
};

using StoreExtensions = std::vector<std::shared_ptr<StoreExtension>>;

} // namespace buzz::relay::store
