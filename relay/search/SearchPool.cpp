#include "relay/search/SearchPool.h"

#include "relay/replication/ReplicaTier.h"
#include "relay/store/Store.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSearchPool, "buzz.relay.search.pool")

namespace buzz::relay::search {

SearchPool::Result SearchPool::runOnWriter(const Work &work)
{
    // The writer indexes in batches (SearchIndexer): rows it has committed but not yet indexed are
    // indexed first.
    if (!m_database.flushDeferredWork())
        return {Outcome::Failed, "writer"};
    store::ConnectionLease lease = m_database.leaseWriterConnection();
    if (!lease)
        return {Outcome::Failed, "writer"};
    m_writerReads.fetch_add(1, std::memory_order_relaxed);
    Failure failure;
    return {work(lease, failure) ? Outcome::Ok : Outcome::Failed, "writer"};
}

SearchPool::Result SearchPool::run(const Work &work)
{
    replication::ReplicaTier *replicas = m_replicas.load();
    const int count = replicas ? replicas->size() : 0;
    if (count == 0)
        return runOnWriter(work);
    const std::size_t start = replicas->nextStartIndex();
    for (int step = 0; step < count; ++step) {
        replication::ReadReplica &replica =
            replicas->replicaAt(static_cast<int>((start + step) % count));
        // A replica that has not replayed a single heartbeat has not joined the stream yet: its
        // index may be empty rather than merely behind.
        if (!replica.heartbeat())
            continue;
        replication::ReadReplica::AcquireFailure acquire {};
        auto reader = replica.acquireReader(replicas->config().acquireTimeout, acquire);
        if (!reader)
            continue;
        m_replicaReads.fetch_add(1, std::memory_order_relaxed);
        // The reader owns the connection; the lease only lends it to the work.
        const store::ConnectionLease lease = reader->postgres()
            ? store::ConnectionLease(reader->postgres(), {})
            : store::ConnectionLease(reader->sqlite(), {});
        Failure failure;
        if (work(lease, failure))
            return {Outcome::Ok, replica.name()};
        if (failure.timedOut || store::SqliteConnection::isInterrupted(failure.sqliteCode)
            || reader->deadlineExceeded())
            return {Outcome::TimedOut, replica.name()};
        qCWarning(lcSearchPool) << replica.name().c_str()
                                << "full-text query failed; re-running on the writer, code"
                                << failure.sqliteCode;
        m_replicaFallbacks.fetch_add(1, std::memory_order_relaxed);
        break;
    }
    return runOnWriter(work);
}

} // namespace buzz::relay::search
