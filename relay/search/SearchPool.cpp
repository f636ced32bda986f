#include "relay/search/SearchPool.h"

#include "relay/replication/ReplicaTier.h"
#include "relay/store/ReadConnection.h"
#include "relay/store/Store.h"

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
    return {work(lease.connection()).ok ? Outcome::Ok : Outcome::Failed, "writer"};
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
        const store::ReadStatus status = work(reader->connection());
        if (status.ok)
            return {Outcome::Ok, replica.name()};
        if (status.timedOut || reader->deadlineExceeded())
            return {Outcome::TimedOut, replica.name()};
        qCWarning(lcSearchPool) << replica.name().c_str()
                                << "full-text query failed; re-running on the writer, code"
                                << status.code;
        m_replicaFallbacks.fetch_add(1, std::memory_order_relaxed);
        break;
    }
    return runOnWriter(work);
}

} // namespace buzz::relay::search
