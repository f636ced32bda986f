#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/store/EventPair.h"
#include "relay/store/EventQuery.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace buzz::relay::store {

class EventLookup;

// How one read statement ended, whatever the backend.
struct ReadStatus
{
    bool ok = true;
    // Cut off by the reader statement timeout (SQLite: the progress handler interrupted it;
    // PostgreSQL: 57014). Surfaced as "query timed out", never re-run.
    bool timedOut = false;
    int code = 0; // the backend's failing result code, for the log
};

// One connection lent for reads (by the writer's pool, or a replica's), as every layer above the
// store sees it: the reads the relay runs, each answered alike by the SQLite and the PostgreSQL
// implementation (store/sqlite/SqliteReadConnection, store/postgres/PgReadConnection), byte for
// byte the same events. Nothing above the store names a backend (relay/README.md "The storage
// seam"). A ReadConnection has one user at a time: the lease that lent it.
class ReadConnection
{
public:
    virtual ~ReadConnection() = default;

    // The point lookups (channels, members, access, single events).
    virtual EventLookup &lookup() = 0;

    // Where a page of rows goes. `row` gets each row in statement order and returns false to
    // stop the read (the answer is full). `hold`, when set, is offered the bytes the backend keeps
    // for rows not yet handed over (libpq holds a whole result) before the first row, and
    // `release` gets them back after the last; a `hold` that returns false stops the read.
    struct RowSink
    {
        std::function<bool(StoredEvent &&)> row;
        std::function<bool(std::size_t)> hold;
        std::function<void(std::size_t)> release;
    };
    // The rows of one filter (EventQuery pushes it down; the caller re-matches every row).
    // `stopped` is set when the sink stopped the read.
    virtual ReadStatus selectEvents(const EventQuery &query, const RowSink &sink,
                                    bool &stopped) = 0;
    // How many rows the filter's statement counts (added to `count`).
    virtual ReadStatus countEvents(const EventQuery &query, std::int64_t &count) = 0;

    // Full-text hits, best first.
    virtual ReadStatus searchText(const TextQuery &query, std::vector<EventPair> &hits) = 0;

    enum class Deleted { Omit, Include };
    // At most one row per (validated, distinct) pair, in the order asked; a pair whose row has
    // another created_at is omitted.
    virtual ReadStatus findPairs(const std::string &community, std::span<const EventPair> pairs,
                                 Deleted deleted, std::vector<StoredEvent> &rows) = 0;
    // Live rows by (validated, distinct) id, in the order asked.
    virtual ReadStatus findIds(const std::string &community, std::span<const std::string> ids,
                               std::vector<StoredEvent> &rows) = 0;

    // One page of a community's events in (created_at, id) order after `cursor` (export): at
    // most `limit` rows to `sink`; the cursor moves to the last one. -1 with `error` on failure.
    struct ExportCursor
    {
        bool started = false;
        std::int64_t createdAt = 0;
        std::string id; // raw 32 bytes
    };
    virtual int exportPage(const std::string &community, ExportCursor &cursor, int limit,
                           const std::function<void(const StoredEvent &)> &sink,
                           std::string &error) = 0;
};

} // namespace buzz::relay::store
