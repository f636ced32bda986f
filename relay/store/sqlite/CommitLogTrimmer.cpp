#include "relay/store/sqlite/CommitLogTrimmer.h"

#include "relay/store/sqlite/SqliteConnection.h"

#include <QLoggingCategory>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace buzz::relay::store {

bool CommitLogTrimmer::load(SqliteConnection &writer)
{
    auto first = writer.prepare("SELECT MIN(lsn), COALESCE(MAX(lsn), 0) FROM commit_log");
    if (!first.valid() || !first.step())
        return false;
    // An empty log: the next record is the first one.
    m_firstLsn.store(first.isNull(0) ? first.int64(1) + 1 : first.int64(0));
    return true;
}

bool CommitLogTrimmer::trimBeforeCommit(SqliteConnection &writer, std::int64_t newestLsn)
{
    if (newestLsn <= 0)
        return true;
    const std::int64_t applied = std::min(m_appliedThrough.load(), newestLsn);
    std::int64_t keepFrom = std::max(applied - m_retention.tailRecords + 1,
                                     newestLsn - m_retention.maxBacklogRecords + 1);
    keepFrom = std::min(keepFrom, newestLsn); // the newest record stays: LSNs never repeat
    if (keepFrom - m_firstLsn.load() < m_retention.trimBatchRecords)
        return true;
    auto trim = writer.prepare("DELETE FROM commit_log WHERE lsn < ?1");
    trim.bind(1, keepFrom);
    if (!trim.run()) {
        qCWarning(lcStore) << "commit log trim failed:" << writer.lastError().c_str();
        return false;
    }
    // Published before the COMMIT: if that fails the records are still there and a replica that
    // believed them gone re-seeds for nothing, which is harmless; the opposite order is not.
    m_firstLsn.store(keepFrom);
    return true;
}

} // namespace buzz::relay::store
