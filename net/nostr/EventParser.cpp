#include "net/nostr/EventParser.h"

#include "net/nostr/Hex.h"

#include <cstdint>
#include <cstring>
#include <limits>

namespace buzz::nostr::detail {

namespace {

// Length of the valid UTF-8 sequence starting with a non-ASCII byte at `p`, or 0 if invalid.
std::size_t utf8SequenceLength(const char *p, const char *end)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(p);
    const unsigned char lead = bytes[0];
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0)
            low = 0xa0;
        else if (lead == 0xed)
            high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0)
            low = 0x90;
        else if (lead == 0xf4)
            high = 0x8f;
    } else {
        return 0;
    }
    if (static_cast<std::size_t>(end - p) < length || bytes[1] < low || bytes[1] > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (bytes[k] < 0x80 || bytes[k] > 0xbf)
            return 0;
    }
    return length;
}

// Cursor over the JSON text; every method returns false to abandon the fast path.
class Reader
{
public:
    explicit Reader(std::string_view text)
        : m_pos(text.data())
        , m_end(text.data() + text.size())
    { }

    void skipWhitespace()
    {
        while (m_pos < m_end
               && (*m_pos == ' ' || *m_pos == '\n' || *m_pos == '\r' || *m_pos == '\t'))
            ++m_pos;
    }

    bool consume(char expected)
    {
        skipWhitespace();
        if (m_pos >= m_end || *m_pos != expected)
            return false;
        ++m_pos;
        return true;
    }

    bool peekIs(char expected)
    {
        skipWhitespace();
        return m_pos < m_end && *m_pos == expected;
    }

    bool atEnd()
    {
        skipWhitespace();
        return m_pos == m_end;
    }

    // A JSON string into `out` (replacing its contents), validating UTF-8 in the same pass.
    bool readString(std::string &out)
    {
        if (!consume('"'))
            return false;
        out.clear();
        const char *runStart = m_pos;
        while (true) {
            if (!skipPlainBytes())
                return false;
            out.append(runStart, static_cast<std::size_t>(m_pos - runStart));
            const char c = *m_pos;
            if (c == '"') {
                ++m_pos;
                return true;
            }
            if (c != '\\')
                return false; // raw control character: invalid JSON
            ++m_pos;
            if (!readEscape(out))
                return false;
            runStart = m_pos;
        }
    }

    // A non-negative JSON integer that fits in int64 (no sign, fraction or exponent).
    bool readNonNegativeInteger(std::int64_t &out)
    {
        skipWhitespace();
        const char *start = m_pos;
        std::uint64_t value = 0;
        while (m_pos < m_end && *m_pos >= '0' && *m_pos <= '9') {
            if (m_pos - start >= 18)
                return false; // leave huge numbers to the general parser
            value = value * 10 + static_cast<std::uint64_t>(*m_pos - '0');
            ++m_pos;
        }
        const std::ptrdiff_t digits = m_pos - start;
        if (digits == 0 || (digits > 1 && *start == '0'))
            return false;
        if (m_pos < m_end && (*m_pos == '.' || *m_pos == 'e' || *m_pos == 'E'))
            return false;
        out = static_cast<std::int64_t>(value);
        return true;
    }

private:
    // Advances over bytes that need no attention (printable ASCII other than '"' and '\\', and
    // valid UTF-8 sequences), eight ASCII bytes per step. Stops at '"', '\\' or a control byte;
    // false on invalid UTF-8 or end of input.
    bool skipPlainBytes()
    {
        constexpr std::uint64_t kOnes = 0x0101010101010101ull;
        constexpr std::uint64_t kHighs = 0x8080808080808080ull;
        while (true) {
            while (m_end - m_pos >= 8) {
                std::uint64_t word;
                std::memcpy(&word, m_pos, sizeof word);
                const std::uint64_t quote = word ^ (kOnes * '"');
                const std::uint64_t backslash = word ^ (kOnes * '\\');
                const std::uint64_t attention = ((quote - kOnes) & ~quote)
                    | ((backslash - kOnes) & ~backslash) | ((word - kOnes * 0x20) & ~word) | word;
                if (attention & kHighs)
                    break;
                m_pos += 8;
            }
            if (m_pos >= m_end)
                return false;
            const auto c = static_cast<unsigned char>(*m_pos);
            if (c == '"' || c == '\\' || c < 0x20)
                return true;
            if (c < 0x80) {
                ++m_pos;
                continue;
            }
            const std::size_t length = utf8SequenceLength(m_pos, m_end);
            if (!length)
                return false;
            m_pos += length;
        }
    }

    static bool readHex4(const char *p, std::uint32_t &out)
    {
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = p[i];
            out <<= 4;
            if (c >= '0' && c <= '9')
                out |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                out |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                out |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                return false;
        }
        return true;
    }

    static void appendUtf8(std::string &out, std::uint32_t codePoint)
    {
        if (codePoint < 0x80) {
            out.push_back(static_cast<char>(codePoint));
        } else if (codePoint < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (codePoint >> 6)));
            out.push_back(static_cast<char>(0x80 | (codePoint & 0x3f)));
        } else if (codePoint < 0x10000) {
            out.push_back(static_cast<char>(0xe0 | (codePoint >> 12)));
            out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (codePoint & 0x3f)));
        } else {
            out.push_back(static_cast<char>(0xf0 | (codePoint >> 18)));
            out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (codePoint & 0x3f)));
        }
    }

    bool readEscape(std::string &out)
    {
        if (m_pos >= m_end)
            return false;
        const char c = *m_pos++;
        switch (c) {
        case '"':
        case '\\':
        case '/':
            out.push_back(c);
            return true;
        case 'b':
            out.push_back('\b');
            return true;
        case 'f':
            out.push_back('\f');
            return true;
        case 'n':
            out.push_back('\n');
            return true;
        case 'r':
            out.push_back('\r');
            return true;
        case 't':
            out.push_back('\t');
            return true;
        case 'u':
            break;
        default:
            return false;
        }
        std::uint32_t codePoint = 0;
        if (m_end - m_pos < 4 || !readHex4(m_pos, codePoint))
            return false;
        m_pos += 4;
        if (codePoint >= 0xdc00 && codePoint <= 0xdfff)
            return false; // lone low surrogate
        if (codePoint >= 0xd800 && codePoint <= 0xdbff) {
            std::uint32_t low = 0;
            if (m_end - m_pos < 6 || m_pos[0] != '\\' || m_pos[1] != 'u'
                || !readHex4(m_pos + 2, low) || low < 0xdc00 || low > 0xdfff)
                return false;
            m_pos += 6;
            codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
        }
        appendUtf8(out, codePoint);
        return true;
    }

    const char *m_pos;
    const char *m_end;
};

enum Field : unsigned {
    FieldId = 1u << 0,
    FieldPubkey = 1u << 1,
    FieldCreatedAt = 1u << 2,
    FieldKind = 1u << 3,
    FieldTags = 1u << 4,
    FieldContent = 1u << 5,
    FieldSig = 1u << 6,
    AllFields = (1u << 7) - 1,
};

bool readTags(Reader &reader, Tags &tags)
{
    if (!reader.consume('['))
        return false;
    tags.clear();
    tags.reserve(4); // typical events carry a handful of tags; avoids regrowth moves
    if (reader.consume(']'))
        return true;
    do {
        if (!reader.consume('['))
            return false;
        Tag &tag = tags.emplace_back();
        tag.reserve(4);
        if (reader.consume(']'))
            continue;
        do {
            if (!reader.readString(tag.emplace_back()))
                return false;
        } while (reader.consume(','));
        if (!reader.consume(']'))
            return false;
    } while (reader.consume(','));
    return reader.consume(']');
}

bool readHexField(Reader &reader, std::string &out, std::size_t length)
{
    return reader.readString(out) && isLowerHex(out, length);
}

} // namespace

bool parseEventFast(std::string_view json, Event &event)
{
    Reader reader(json);
    if (!reader.consume('{'))
        return false;
    unsigned seen = 0;
    std::string key;
    key.reserve(16);
    if (reader.peekIs('}'))
        return false;
    do {
        if (!reader.readString(key) || !reader.consume(':'))
            return false;
        unsigned field = 0;
        bool ok = false;
        if (key == "id") {
            field = FieldId;
            ok = readHexField(reader, event.id, 64);
        } else if (key == "pubkey") {
            field = FieldPubkey;
            ok = readHexField(reader, event.pubkey, 64);
        } else if (key == "created_at") {
            field = FieldCreatedAt;
            ok = reader.readNonNegativeInteger(event.createdAt);
        } else if (key == "kind") {
            field = FieldKind;
            std::int64_t kind = 0;
            ok = reader.readNonNegativeInteger(kind) && kind <= 65535;
            event.kind = static_cast<int>(kind);
        } else if (key == "tags") {
            field = FieldTags;
            ok = readTags(reader, event.tags);
        } else if (key == "content") {
            field = FieldContent;
            ok = reader.readString(event.content);
        } else if (key == "sig") {
            field = FieldSig;
            ok = readHexField(reader, event.sig, 128);
        }
        if (!ok || (seen & field))
            return false; // unknown key, duplicate, or a value the general path must judge
        seen |= field;
    } while (reader.consume(','));
    return reader.consume('}') && reader.atEnd() && seen == AllFields;
}

bool isValidUtf8(std::string_view text)
{
    const char *p = text.data();
    const char *end = p + text.size();
    while (p < end) {
        // ASCII runs, eight bytes at a time.
        while (end - p >= 8) {
            std::uint64_t word;
            std::memcpy(&word, p, sizeof word);
            if (word & 0x8080808080808080ull)
                break;
            p += 8;
        }
        if (p >= end)
            break;
        if (static_cast<unsigned char>(*p) < 0x80) {
            ++p;
            continue;
        }
        const std::size_t length = utf8SequenceLength(p, end);
        if (!length)
            return false;
        p += length;
    }
    return true;
}

} // namespace buzz::nostr::detail
