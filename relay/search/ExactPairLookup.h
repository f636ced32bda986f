#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/search/EventPair.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace buzz::relay::store {
class SqliteConnection;
}

namespace buzz::relay::search {

// The bounded exact-pair lookup on one connection: at most kMaxPairs distinct (id, created_at)
// pairs, joined against `events` through events_by_id (community, id) with the created_at checked
// on the row, so the statement only ever searches that index — never a scan of events (nor a
// Bloom filter built by one). An id names one row per community, so the pair adds no selectivity
// an index on (created_at, id) could use. Also the ID-only batch lookup for callers that have no
// timestamps.
class ExactPairLookup
{
public:
    static constexpr std::size_t kMaxPairs = 500;

    enum class Deleted { Omit, Include };

    struct Rows
    {
        std::vector<StoredEvent> events; // at most one per distinct pair, in batch order
        bool ok = true;
        int sqliteCode = 0;
        bool timedOut = false; // PostgreSQL cancelled it by its statement_timeout (57014)
    };

    // Why a batch is refused, before any connection is taken (empty = acceptable): more than
    // kMaxPairs pairs, an id that is not 64 lower-case hex, or a negative created_at.
    static std::optional<std::string> validate(std::span<const EventPair> pairs);
    static std::optional<std::string> validateIds(std::span<const std::string> ids);
    // The distinct pairs in first-occurrence order (duplicates never multiply results).
    static std::vector<EventPair> distinct(std::span<const EventPair> pairs);

    // The statements: the pairs (or ids) travel as one JSON array parameter (?2), joined
    // through json_each, so one cached statement serves every batch size.
    static std::string pairSql(Deleted deleted = Deleted::Omit);
    static std::string idSql();
    static std::string pairsJson(std::span<const EventPair> pairs); // ["<id><created_at>",…]
    static std::string idsJson(std::span<const std::string> ids);

    // `pairs` must be validated and distinct.
    static Rows findPairs(store::SqliteConnection &connection, const std::string &community,
                          std::span<const EventPair> pairs, Deleted deleted = Deleted::Omit);
    // Live rows by id only (the pre-existing lookup shape), `ids` validated and distinct.
    static Rows findIds(store::SqliteConnection &connection, const std::string &community,
                        std::span<const std::string> ids);

    static bool isEventId(std::string_view id);
};

} // namespace buzz::relay::search
