#pragma once

#include "relay/search/EventPair.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::store {
class SqliteConnection;
}

namespace buzz::relay::search {

// Relevance-ordered hits from one database's FTS index, as (id, created_at) pairs. Scoping is part
// of the statement: the caller's community, the listed channels (plus global, channel-less events
// when asked) and the filter's kinds, authors and time bounds, so LIMIT counts only hits the
// caller may be shown.
class SearchIndex
{
public:
    struct Query
    {
        std::string match; // SearchText::toMatchExpression
        std::string community;
        std::vector<std::string> channels;
        bool includeGlobal = true;
        std::optional<std::vector<int>> kinds;
        std::optional<std::vector<std::string>> authors;
        std::optional<std::int64_t> since;
        std::optional<std::int64_t> until;
        int limit = 100;
    };

    struct Hits
    {
        std::vector<EventPair> pairs; // best first (bm25)
        bool ok = true;
        int sqliteCode = 0;
        bool timedOut = false; // PostgreSQL cancelled it by its statement_timeout (57014)
    };

    static Hits search(store::SqliteConnection &connection, const Query &query);
    static std::string sqlFor(const Query &query);
};

} // namespace buzz::relay::search
