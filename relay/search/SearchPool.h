#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace buzz::relay::store {
class ReadConnection;
class Store;
struct ReadStatus;
} // namespace buzz::relay::store

namespace buzz::relay::replication {
class ReplicaTier;
}

namespace buzz::relay::search {

// Where full-text queries run. The pool prefers a replica — any replica that has joined the
// replication stream, however far it lags, since every replica keeps its own index and hits are
// hydrated on the routed Bounded arm afterwards — and falls back to the writer when no replica
// exists or none has a free reader within the acquire timeout. A replica failure re-runs on the
// writer; a replica statement timeout is surfaced (the writer would be as slow).
class SearchPool
{
public:
    enum class Outcome { Ok, TimedOut, Failed };
    struct Result
    {
        Outcome outcome = Outcome::Ok;
        std::string pool; // "replica-N" | "writer"
    };
    // The work runs on the connection and reports how its statement ended.
    using Work = std::function<store::ReadStatus(store::ReadConnection &connection)>;

    explicit SearchPool(store::Store &database)
        : m_database(database)
    { }

    // nullptr (the default): every full-text query runs on the writer.
    void setReplicas(replication::ReplicaTier *replicas) { m_replicas.store(replicas); }

    Result run(const Work &work);

    std::uint64_t replicaReads() const { return m_replicaReads.load(); }
    std::uint64_t writerReads() const { return m_writerReads.load(); }
    std::uint64_t replicaFallbacks() const { return m_replicaFallbacks.load(); }

private:
    Result runOnWriter(const Work &work);

    store::Store &m_database;
    std::atomic<replication::ReplicaTier *> m_replicas {nullptr};
    std::atomic<std::uint64_t> m_replicaReads {0};
    std::atomic<std::uint64_t> m_writerReads {0};
    std::atomic<std::uint64_t> m_replicaFallbacks {0};
};

} // namespace buzz::relay::search
