#include "relay/store/postgres/PgSearchIndex.h"

#include "relay/store/HexKey.h"
#include "relay/store/SearchText.h"
#include "relay/store/postgres/PgConnection.h"

#include <cctype>

namespace buzz::relay::store {

std::optional<std::string> PgSearchIndex::toTsQuery(std::string_view text)
{
    // The words of each whitespace-separated term, split as buzz_search_body() splits the text
    // (at every ASCII character that is neither letter nor digit): "alice@wonder" is two words.
    std::vector<std::string_view> words;
    std::size_t at = 0;
    std::size_t terms = 0;
    while (at < text.size() && terms < SearchText::kMaxWords) {
        while (at < text.size() && SearchText::isSpace(text[at]))
            ++at;
        const std::size_t start = at;
        while (at < text.size() && !SearchText::isSpace(text[at]))
            ++at;
        const std::string_view term = text.substr(start, at - start);
        if (term.empty() || !SearchText::hasToken(term))
            continue;
        ++terms;
        std::size_t from = 0;
        while (from < term.size()) {
            while (from < term.size() && !SearchText::isWordByte(term[from]))
                ++from;
            const std::size_t begin = from;
            while (from < term.size() && SearchText::isWordByte(term[from]))
                ++from;
            if (from > begin)
                words.push_back(term.substr(begin, from - begin));
        }
    }
    if (words.empty())
        return std::nullopt;
    // Word bytes are letters, digits and non-ASCII text: nothing in them needs quoting.
    std::string query;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i)
            query += " & ";
        query += '\'';
        query += words[i];
        query += '\'';
        if (i + 1 == words.size())
            query += ":*";
    }
    return query;
}

std::string PgSearchIndex::sqlFor(const TextQuery &query)
{
    // $1 community, $2 tsquery text, $3 channels, $4 kinds, $5 authors, $6 since, $7 until,
    // $8 limit (absent ones are still bound, as NULL, so one statement text serves each shape).
    std::string sql = "SELECT e.id, e.created_at FROM events e, to_tsquery('simple', $2) q "
                      "WHERE e.search_vector @@ q AND e.community = $1 AND e.deleted_at IS NULL "
                      "AND ";
    sql +=
        query.includeGlobal ? "(e.channel IS NULL OR e.channel = ANY($3))" : "e.channel = ANY($3)";
    if (query.kinds)
        sql += " AND e.kind = ANY($4)";
    if (query.authors)
        sql += " AND e.pubkey = ANY($5)";
    if (query.since)
        sql += " AND e.created_at >= $6";
    if (query.until)
        sql += " AND e.created_at <= $7";
    sql += " ORDER BY ts_rank(e.search_vector, q) DESC, e.created_at DESC, e.id ASC LIMIT $8";
    return sql;
}

ReadStatus PgSearchIndex::search(PgConnection &connection, const TextQuery &query,
                                 std::vector<EventPair> &hits)
{
    std::vector<std::string> authors;
    if (query.authors) {
        for (const std::string &hex : *query.authors) {
            if (const auto key = HexKey::decode<32>(hex))
                authors.emplace_back(reinterpret_cast<const char *>(key->data()), key->size());
        }
    }
    PgParams params;
    params.text(query.community).text(query.match).textArray(query.channels);
    params.int32Array(query.kinds ? std::span<const int>(*query.kinds) : std::span<const int>());
    params.bytesArray(authors);
    params.timestamp(query.since.value_or(0));
    params.timestamp(query.until.value_or(0));
    params.int64(query.limit);
    PgResult result = connection.run(sqlFor(query), params);
    if (!result.ok())
        return {false, result.sqlState() == pgstate::kQueryCanceled, 0};
    hits.reserve(std::size_t(result.rows()));
    for (int row = 0; row < result.rows(); ++row)
        hits.push_back(EventPair {HexKey::hex(result.bytes(row, 0)), result.int64(row, 1)});
    return {};
}

} // namespace buzz::relay::store
