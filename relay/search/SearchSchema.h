#pragma once

#include <cstdint>
#include <string_view>

namespace buzz::relay::store {
class SqliteConnection;
}

namespace buzz::relay::search {

// The NIP-50 full-text index (SQLite FTS5) of one database. Triggers on `events` queue each
// searchable insert and flushPending indexes the queue before the transaction commits, so the
// index is always in the same transaction as the row change, so on the writer it commits atomically
// with the change and its commit-log record, and on a replica it is rebuilt exactly by replaying
// that log (every replayed insert and soft delete fires the same triggers). A lagging replica
// therefore has a lagging but self-consistent index, and search can be served there.
class SearchSchema
{
public:
    // FTS table name; each row is (body, id, created_at, community, channel, kind, pubkey) with
    // rowid = the events rowid, so the signed created_at travels with every hit.
    static constexpr const char *kTable = "search_fts";

    // Creates the table and triggers if missing and indexes rows that predate them (a writer
    // database created before search existed). Idempotent.
    static bool apply(store::SqliteConnection &connection);
    // Indexes the rows queued by this transaction's inserts. Every transaction that may insert
    // events runs it just before COMMIT (store::Schema::beforeCommit); cheap when nothing queued.
    static bool flushPending(store::SqliteConnection &connection);

    // Kinds whose text is searchable: profiles (kind 0, names flattened to words), notes,
    // messages, edits, forum posts/comments and canvases.
    static bool isIndexedKind(int kind);
};

} // namespace buzz::relay::search
