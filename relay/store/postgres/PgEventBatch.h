#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/model/ThreadLink.h"
#include "relay/store/postgres/PgConnection.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {

// The event rows of one PostgreSQL group commit that are held back to be inserted together: one
// statement for many events instead of one each, which is most of PostgreSQL's own cost per event
// (docs/benchmarks.md "PostgreSQL"). PgStore fills it while a group's works run, and sends it
// (deferred, PgConnection::defer) before any other statement that could read those rows, and
// before COMMIT. A held-back insert answers "inserted" before the database has said so: the
// statement inserts without ON CONFLICT, so a duplicate makes it fail and PgStore runs the group
// again one event at a time, where the answer is exact.
class PgEventBatch
{
public:
    // One event's rows: the events row, its single-letter tags (not h), its thread link.
    struct Row
    {
        int member = 0; // the work of the group that inserted it
        std::string community;
        std::int64_t createdAt = 0;
        std::string id, pubkey, sig; // raw bytes
        int kind = 0;
        std::optional<std::string> channel, dTag;
        std::int64_t receivedAt = 0;
        std::string tagsJson;
        std::string content;
        std::vector<std::string> tagNames, tagValues;
        std::optional<std::string> rootId, parentId; // raw bytes, both or neither
        int depth = 0;
    };

    // The rows of `stored`, or nullopt (with `why`) when PostgreSQL cannot store it.
    static std::optional<Row> rowOf(const StoredEvent &stored,
                                    const std::optional<std::string> &dTag, std::int64_t receivedAt,
                                    const std::optional<model::ThreadLink> &thread,
                                    std::string &why);

    void add(Row row) { m_rows.push_back(std::move(row)); }
    bool empty() const { return m_rows.empty(); }
    bool hasRowsOf(int member) const;
    bool hasRowsBefore(int member) const;
    // A rolled-back work's rows.
    void drop(int member);
    // The insert of the rows of works before `member` (or of `member` alone), taken out.
    PgParams takeBefore(int member);
    PgParams takeOf(int member);

    // Called before `writer` sends `sql` while work `current` of the group runs (-1: the group's
    // end): defers the inserts of what `sql` must see, a work's own rows inside its savepoint
    // (`savepoint`, withdrawn and deferred again after the earlier works' rows when not sent
    // yet). Sets `earlierRowsInSavepoint` when earlier works' rows had to go inside the open
    // savepoint of `current`.
    void sendBefore(std::string_view sql, PgConnection &writer, int current,
                    std::string_view savepoint, bool &earlierRowsInSavepoint);
    // Whether `sql` may read or write rows this batch holds back (events, event_tags,
    // thread_metadata): such a statement sends them first.
    static bool touches(std::string_view sql);

    // $1…$22: the arrays of takeBefore() / takeOf().
    static const std::string kInsertSql;

private:
    template<class Take>
    PgParams take(Take take);

    std::vector<Row> m_rows;
};

} // namespace buzz::relay::store
