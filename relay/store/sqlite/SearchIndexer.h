#pragma once

#include "relay/store/StoreExtension.h"

#include <atomic>
#include <cstdint>

namespace buzz::relay::store {

// Keeps the full-text index (SearchSchema) in step with the rows, as a store extension: its
// schema is created with the store's, a replica indexes every replayed batch before it commits,
// and the writer indexes in batches — before the COMMIT that brings the queue to kBatchRows rows
// or finds its oldest row kBatchMs old — rather than at every commit (FTS5 writes an index segment
// at every commit; indexing per commit cost a third of the in-process ingest time). Whatever is
// deferred is indexed before any full-text read on the writer
// (SqliteStore::flushDeferredWork), so a search on the writer never misses an acknowledged
// row.
class SearchIndexer : public StoreExtension
{
public:
    static constexpr std::int64_t kBatchRows = 256;
    static constexpr std::int64_t kBatchMs = 250;

    bool applySchema(SqliteConnection &connection) override;
    bool attachWriter(SqliteConnection &writer) override;
    bool beforeWriterCommit(SqliteConnection &writer, std::int64_t nowMs, bool force) override;
    void writerRolledBack() override { m_backlog.store(true); }
    bool hasDeferredWork() const override { return m_backlog.load(); }
    bool beforeReplayCommit(SqliteConnection &replica) override;

private:
    std::int64_t m_backlogSinceMs = 0; // writer lock held; 0 = nothing deferred
    // Rows may be queued and unindexed (read without the writer lock; set conservatively).
    std::atomic<bool> m_backlog {false};
};

} // namespace buzz::relay::store
