#include "relay/store/SearchText.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace buzz::relay::store {

bool SearchText::isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool SearchText::isWordByte(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x80 || std::isalnum(byte);
}

// The unicode61 tokenizer keeps letters and digits (and every non-ASCII code point it does not
// class as a separator): a word with none of them tokenises to nothing.
bool SearchText::hasToken(std::string_view word)
{
    return std::any_of(word.begin(), word.end(), isWordByte);
}

std::optional<std::string> SearchText::toMatchExpression(std::string_view text)
{
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (at < text.size() && words.size() < kMaxWords) {
        while (at < text.size() && isSpace(text[at]))
            ++at;
        const std::size_t start = at;
        while (at < text.size() && !isSpace(text[at]))
            ++at;
        const std::string_view word = text.substr(start, at - start);
        if (!word.empty() && hasToken(word))
            words.push_back(word);
    }
    if (words.empty())
        return std::nullopt;
    std::string expression;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i)
            expression += ' ';
        expression += '"';
        for (const char c : words[i]) {
            if (c == '"')
                expression += '"';
            expression += c;
        }
        expression += '"';
        if (i + 1 == words.size())
            expression += '*';
    }
    return expression;
}

} // namespace buzz::relay::store
