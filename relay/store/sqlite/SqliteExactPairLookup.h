#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/store/EventPair.h"
#include "relay/store/ReadConnection.h"

#include <span>
#include <string>
#include <vector>

namespace buzz::relay::store {

class SqliteConnection;

// The bounded exact-pair lookup on one connection (ReadConnection::findPairs): at most
// search::ExactPairLookup::kMaxPairs distinct (id, created_at) pairs, joined against `events`
// through events_by_id (community, id) with the created_at checked on the row, so the statement
// only ever searches that index — never a scan of events (nor a Bloom filter built by one). An id
// names one row per community, so the pair adds no selectivity an index on (created_at, id) could
// use. Also the ID-only batch lookup for callers that have no timestamps.
class SqliteExactPairLookup
{
public:
    using Deleted = ReadConnection::Deleted;

    // The statements: the pairs (or ids) travel as one JSON array parameter (?2), joined
    // through json_each, so one cached statement serves every batch size.
    static std::string pairSql(Deleted deleted = Deleted::Omit);
    static std::string idSql();
    static std::string pairsJson(std::span<const EventPair> pairs); // ["<id><created_at>",…]
    static std::string idsJson(std::span<const std::string> ids);

    // `pairs` must be validated and distinct.
    static ReadStatus findPairs(SqliteConnection &connection, const std::string &community,
                                std::span<const EventPair> pairs, Deleted deleted,
                                std::vector<StoredEvent> &rows);
    // Live rows by id only (the pre-existing lookup shape), `ids` validated and distinct.
    static ReadStatus findIds(SqliteConnection &connection, const std::string &community,
                              std::span<const std::string> ids, std::vector<StoredEvent> &rows);
};

} // namespace buzz::relay::store
