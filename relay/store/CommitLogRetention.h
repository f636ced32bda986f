#pragma once

#include <cstdint>

namespace buzz::relay::store {

// How much of the commit log the writer keeps (relay/README.md "The commit log"). Records every
// replica has applied are trimmed down to a tail; a replica that needs a record no longer kept
// re-seeds from a snapshot of the writer instead of replaying.
struct CommitLogRetention
{
    // Records kept after every replica has applied them (also with no replica at all): a replica
    // that resumes (after a pause, a fault) within this many records replays instead of
    // re-seeding. At least 1: the newest record always stays, so an LSN is never handed out twice.
    std::int64_t tailRecords = 10'000;
    // The most records kept for a replica that is behind (paused, lagging, failing): past this the
    // log is trimmed anyway, and that replica re-seeds when it replays again. So a stuck replica
    // costs a bounded log, on disk and in the replica tier's memory. At least tailRecords.
    std::int64_t maxBacklogRecords = 100'000;
    // The log is trimmed once at least this many records can go: one DELETE per ~1,000 commits
    // rather than a small one in every commit. At least 1.
    std::int64_t trimBatchRecords = 1'000;

    // The same with every bound at its documented minimum.
    CommitLogRetention normalized() const
    {
        CommitLogRetention out = *this;
        if (out.tailRecords < 1)
            out.tailRecords = 1;
        if (out.maxBacklogRecords < out.tailRecords)
            out.maxBacklogRecords = out.tailRecords;
        if (out.trimBatchRecords < 1)
            out.trimBatchRecords = 1;
        return out;
    }
};

} // namespace buzz::relay::store
