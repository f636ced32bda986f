#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace buzz::relay::store {

// The NIP-50 `search` string as an FTS5 MATCH expression. Every whitespace-separated word becomes
// a quoted phrase (so user text can never be FTS syntax), all words must match, and the last word
// also matches as a prefix (search-as-you-type: "ali" finds "alice").
class SearchText
{
public:
    // nullopt when the text has no searchable word (blank or punctuation only): matches nothing.
    static std::optional<std::string> toMatchExpression(std::string_view text);

    // The rules both stores' search strings follow (SQLite FTS5 here, PgSearchIndex on PostgreSQL).
    static constexpr std::size_t kMaxWords = 16;
    static bool isSpace(char c);
    // A letter, a digit, or any byte of non-ASCII text: what both tokenizers keep.
    static bool isWordByte(char c);
    // A word with none of those tokenises to nothing.
    static bool hasToken(std::string_view word);
};

} // namespace buzz::relay::store
