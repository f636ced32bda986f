#pragma once

#include "relay/search/SearchIndex.h"

namespace buzz::relay::store {
class PgConnection;
}

namespace buzz::relay::search {

// SearchIndex on PostgreSQL: the generated events.search_vector (tsvector, 'simple'
// configuration) and its GIN index, scoped by the same columns as on SQLite and ranked by
// ts_rank (then newest first). Every word must match, the last one also as a prefix.
class PgSearchIndex
{
public:
    // The NIP-50 words as a to_tsquery() text: each word quoted as a phrase (user text is never
    // tsquery syntax), joined with &, the last one with :* — nullopt when no word is searchable.
    static std::optional<std::string> toTsQuery(std::string_view text);
    static std::string sqlFor(const SearchIndex::Query &query);
    // `query.match` is ignored: the words come from `search`.
    static SearchIndex::Hits search(store::PgConnection &connection,
                                    const SearchIndex::Query &query, const std::string &tsQuery);
};

} // namespace buzz::relay::search
