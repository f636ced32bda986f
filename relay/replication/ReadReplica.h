#pragma once

// One read replica as routing, search and the admin API see it, whatever it is: a simulated
// SQLite replica replaying the commit log (replication::Replica) or a real PostgreSQL streaming
// hot standby (replication::PgStandby).

#include "relay/replication/FenceRing.h"
#include "relay/replication/ReplicaFaults.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace buzz::relay::store {
class ReadConnection;
} // namespace buzz::relay::store

namespace buzz::relay::replication {

// A borrowed reader connection and the snapshot it proves: every statement run on it sees the
// state the heartbeat came from. Released when destroyed.
class ReplicaReader
{
public:
    virtual ~ReplicaReader() = default;
    // The reads, whatever the backend (store::ReadConnection).
    virtual store::ReadConnection &connection() = 0;
    virtual const std::optional<ObservedHeartbeat> &heartbeat() const = 0;
    // How far the snapshot has applied the writer's commits (at least; see ReadReplica).
    virtual std::int64_t position() const = 0;
    // The statement ran past the reader statement timeout (SQLite; PostgreSQL says 57014).
    virtual bool deadlineExceeded() const = 0;
};

class ReadReplica
{
public:
    virtual ~ReadReplica() = default;

    virtual int index() const = 0;
    virtual std::string name() const = 0;
    virtual std::string location() const = 0;

    // The last heartbeat this replica is known to hold (nullopt: none yet, or unreachable).
    virtual std::optional<ObservedHeartbeat> heartbeat() const = 0;
    // How far it is known to have applied the writer's commits, in commit order: the commit-log
    // LSN (SQLite) or the WAL replay position (PostgreSQL); 0 when unknown. Only ever an
    // underestimate, so "at or past P" from it is true.
    virtual std::int64_t appliedPosition() const = 0;
    virtual bool paused() const = 0;
    // False when the replica refused (a PostgreSQL standby that could not be reached).
    virtual bool setPaused(bool paused) = 0;
    virtual std::int64_t lagMs() const = 0;
    virtual bool setLagMs(std::int64_t lagMs) = 0;
    virtual ReplicaFaults &faults() = 0;
    virtual const ReplicaFaults &faults() const = 0;
    // Whether the replica runs a timeout fault itself (a PostgreSQL standby: the next statement
    // under a tiny statement_timeout) rather than the router refusing the read in its place.
    virtual bool runsTimeoutFault() const { return false; }

    enum class AcquireFailure { None, Busy, Unavailable };
    // A reader within `wait`, else nullptr with why: every reader busy (or a busy fault), or the
    // replica cannot be reached at all (a stopped standby: reads fail closed to the writer).
    virtual std::unique_ptr<ReplicaReader> acquireReader(std::chrono::milliseconds wait,
                                                         AcquireFailure &failure) = 0;

    virtual int poolSize() const = 0;
    virtual int activeReaders() const = 0;
};

} // namespace buzz::relay::replication
