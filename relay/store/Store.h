#pragma once

#include "relay/model/PresenceTable.h"
#include "relay/model/SharedReplayCache.h"
#include "relay/store/CommitLogRetention.h"
#include "relay/store/ConnectionLease.h"
#include "relay/store/CrossProcessFeed.h"
#include "relay/store/StoreVisitor.h"
#include "relay/store/WriteTransaction.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace buzz::relay::store {

// The writer store the engine runs on: SQLite (store/sqlite/SqliteStore, the embedded default) or
// PostgreSQL (store/postgres/PgStore). Both serialise writes on one writer connection and commit
// them in groups; the engine, ingest, routing and search see only this, ReadConnection and
// WriteTransaction (relay/README.md "The storage seam").
class Store
{
public:
    struct Options
    {
        std::optional<std::string> dataDir; // SQLite files there; nullopt = in memory
        std::string databaseUrl; // PostgreSQL instead of SQLite when set
        CommitLogRetention commitLogRetention; // SQLite: how much commit log the writer keeps
        std::int64_t nowSec = 0; // PostgreSQL: its event partitions are created around it
    };
    // The one place a backend is chosen: PostgreSQL when `databaseUrl` is set, else SQLite.
    // nullptr with `error` when it cannot be opened.
    static std::unique_ptr<Store> open(const Options &options, std::string &error);

    enum class GroupOutcome {
        Committed, // the work kept its changes and the group transaction committed
        Discarded, // the work rolled its own changes back (a rejection); nothing was written
        Failed, // the group transaction did not commit: nothing of this work is stored
    };
    using GroupWork = std::function<void(WriteTransaction &)>;
    using GroupDone = std::function<void(GroupOutcome)>;

    struct GroupCommitStats
    {
        std::uint64_t groups = 0; // writer transactions run by writeInGroup
        std::uint64_t members = 0; // works run inside them
    };

    virtual ~Store() = default;

    // Group commit. Works queue; the writer runs every queued work in one writer transaction,
    // each under its own savepoint (so one work's rollback never touches another's rows), then
    // commits once and reports to each. Works run strictly in queue order on one connection, so
    // each sees the rows of those before it, exactly as if they had been separate transactions in
    // that order. Returns only after the group's COMMIT (or its failure): a caller never learns of
    // an uncommitted row. A work may be run more than once (PostgreSQL runs a group again one
    // event at a time when its batched insert failed, store/postgres/PgEventBatch.h): it changes
    // nothing outside its transaction, and only its last run's results count.
    virtual GroupOutcome writeInGroup(const std::string &community, std::int64_t nowMs,
                                      const GroupWork &work) = 0;
    // The same without blocking the caller: `done` runs on the writer's thread after the group's
    // COMMIT (or its failure), so it must be short (post the answer elsewhere).
    virtual void writeInGroupAsync(std::string community, std::int64_t nowMs, GroupWork work,
                                   GroupDone done) = 0;
    // Runs what is queued and stops the writer thread; later writes run on their caller's thread.
    virtual void finishQueuedWrites() = 0;

    // A connection on the writer database for one read. Reads choose between it and a replica
    // through routing, never here.
    virtual ConnectionLease leaseWriterConnection() = 0;

    // Ingests waiting for (or running in) a group right now.
    virtual std::size_t queuedWrites() const = 0;
    virtual GroupCommitStats groupCommitStats() const = 0;
    // Work the writer deferred (the SQLite full-text batch) done now, so a read of it on the
    // writer sees every committed row.
    virtual bool flushDeferredWork() = 0;
    // Position of the last committed change: the commit-log LSN (SQLite) or the WAL LSN of the
    // last commit (PostgreSQL), as a number that only grows.
    virtual std::int64_t lastLsn() const = 0;
    // Oldest open write's start (relay clock), if one is open: the replica fence wall stays below.
    virtual std::optional<std::int64_t> openWriteStartedAtMs() const = 0;
    // "sqlite /path", "sqlite (memory)", "postgresql host:port/db": for start lines.
    virtual std::string describe() const = 0;

    // The NIP-50 words as this backend's full-text query (an FTS5 MATCH expression, a
    // to_tsquery() text); nullopt when no word is searchable, so the filter matches nothing.
    virtual std::optional<std::string> textMatch(std::string_view search) const = 0;
    // The oldest commit-log record kept (records below it may have been trimmed); 0 where the
    // database replicates itself (PostgreSQL).
    virtual std::int64_t commitLogFirstLsn() const { return 0; }

    // What every relay process on one database shares (relay/README.md "Several processes on one
    // PostgreSQL"): each author's presence status and the NIP-98 ids seen. Both null where one
    // process holds the database (SQLite); `error` says why they are missing where they should
    // not be.
    struct Shared
    {
        std::shared_ptr<PresenceTable> presence;
        std::shared_ptr<SharedReplayCache> replays;
    };
    virtual Shared openShared(std::string & /*error*/) { return {}; }
    // Events the other processes on the same database commit, delivered to `deliver` until the
    // feed is destroyed; null where one process holds the database.
    virtual std::unique_ptr<CrossProcessFeed> followOtherProcesses(CrossProcessFeed::Deliver)
    {
        return nullptr;
    }
    // Calls the visitor's overload for this backend (StoreVisitor).
    virtual void accept(StoreVisitor &visitor) = 0;
};

} // namespace buzz::relay::store
