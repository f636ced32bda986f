#pragma once

#include "relay/store/EventPair.h"
#include "relay/store/EventQuery.h"
#include "relay/store/ReadConnection.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::relay::store {

class PgConnection;

// SqliteSearchIndex on PostgreSQL: the generated events.search_vector (tsvector, 'simple'
// configuration) and its GIN index, scoped by the same columns as on SQLite and ranked by
// ts_rank (then newest first). Every word must match, the last one also as a prefix.
class PgSearchIndex
{
public:
    // The NIP-50 words as a to_tsquery() text: each word quoted as a phrase (user text is never
    // tsquery syntax), joined with &, the last one with :* — nullopt when no word is searchable.
    static std::optional<std::string> toTsQuery(std::string_view text);
    static std::string sqlFor(const TextQuery &query);
    // `query.match` is a toTsQuery() text.
    static ReadStatus search(PgConnection &connection, const TextQuery &query,
                             std::vector<EventPair> &hits);
};

} // namespace buzz::relay::store
