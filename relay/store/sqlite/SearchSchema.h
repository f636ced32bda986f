#pragma once

#include <cstdint>
#include <string_view>

namespace buzz::relay::store {
class SqliteConnection;
}

namespace buzz::relay::store {

// The NIP-50 full-text index (SQLite FTS5) of one database. Triggers on `events` queue each
// searchable insert (search_pending, in the row's own transaction) and flushPending indexes the
// queue. A replica flushes before each replayed batch commits, so its index is rebuilt exactly by
// replaying the commit log (every replayed insert and soft delete fires the same triggers): a
// lagging replica has a lagging but self-consistent index, and search can be served there. The
// writer flushes in batches (SqliteStore) and always before a full-text read of its own, so
// no search on the writer misses a committed row.
class SearchSchema
{
public:
    // FTS table name: terms of `body` with rowid = the events rowid; a query joins events for the
    // id, the signed created_at and the scope of every hit.
    static constexpr const char *kTable = "search_fts";

    // Creates the table and triggers if missing and indexes rows that predate them (a writer
    // database created before search existed). Idempotent.
    static bool apply(SqliteConnection &connection);
    // Indexes every queued row and empties the queue; cheap when nothing is queued.
    static bool flushPending(SqliteConnection &connection);
    // Rows queued and not yet indexed (-1 on error).
    static std::int64_t pendingCount(SqliteConnection &connection);

    // Kinds whose text is searchable: profiles (kind 0, names flattened to words), notes,
    // messages, edits, forum posts/comments and canvases.
    static bool isIndexedKind(int kind);
};

} // namespace buzz::relay::store
