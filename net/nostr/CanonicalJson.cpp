#include "net/nostr/CanonicalJson.h"

#include <cstdint>
#include <cstring>

namespace buzz::nostr {

void appendJsonString(std::string &out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t runStart = 0;
    constexpr std::uint64_t kOnes = 0x0101010101010101ull;
    constexpr std::uint64_t kHighs = 0x8080808080808080ull;
    for (std::size_t i = 0; i < text.size(); ++i) {
        // Skip eight bytes at a time while none is '"', '\\' or a control byte.
        while (text.size() - i >= 8) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, sizeof word);
            const std::uint64_t quote = word ^ (kOnes * '"');
            const std::uint64_t backslash = word ^ (kOnes * '\\');
            const std::uint64_t attention = ((quote - kOnes) & ~quote)
                | ((backslash - kOnes) & ~backslash) | ((word - kOnes * 0x20) & ~word);
            if (attention & kHighs)
                break;
            i += 8;
        }
        if (i >= text.size())
            break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        // Copy the untouched run in one go; most strings have no escapes at all.
        out.append(text.data() + runStart, i - runStart);
        runStart = i + 1;
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        default: {
            const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0x0f]};
            out.append(escaped, sizeof escaped);
        }
        }
    }
    out.append(text.data() + runStart, text.size() - runStart);
    out.push_back('"');
}

} // namespace buzz::nostr
