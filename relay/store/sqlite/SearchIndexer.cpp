#include "relay/store/sqlite/SearchIndexer.h"

#include "relay/store/sqlite/SearchSchema.h"

#include <algorithm>

namespace buzz::relay::store {

bool SearchIndexer::applySchema(SqliteConnection &connection)
{
    return SearchSchema::apply(connection);
}

bool SearchIndexer::attachWriter(SqliteConnection &writer)
{
    // Rows queued by an earlier run are indexed by the next search or batch.
    const std::int64_t pending = SearchSchema::pendingCount(writer);
    m_backlog.store(pending != 0);
    return pending >= 0;
}

bool SearchIndexer::beforeWriterCommit(SqliteConnection &writer, std::int64_t nowMs, bool force)
{
    const std::int64_t pending = SearchSchema::pendingCount(writer);
    if (pending < 0)
        return false;
    if (pending > 0 && !force) {
        if (m_backlogSinceMs == 0)
            m_backlogSinceMs = std::max<std::int64_t>(nowMs, 1);
        if (pending < kBatchRows && nowMs - m_backlogSinceMs < kBatchMs) {
            m_backlog.store(true);
            return true;
        }
    }
    if (pending > 0 && !SearchSchema::flushPending(writer))
        return false;
    m_backlogSinceMs = 0;
    m_backlog.store(false);
    return true;
}

bool SearchIndexer::beforeReplayCommit(SqliteConnection &replica)
{
    return SearchSchema::flushPending(replica);
}

} // namespace buzz::relay::store
