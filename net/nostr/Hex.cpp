#include "net/nostr/Hex.h"

#include <array>

namespace buzz::nostr {

namespace {

constexpr char kDigits[] = "0123456789abcdef";

// -1 for anything that is not a hex digit; a table keeps the hot id/sig decoding branch-light.
constexpr std::array<std::int8_t, 256> makeNibbleTable()
{
    std::array<std::int8_t, 256> table {};
    for (auto &entry : table)
        entry = -1;
    for (int c = '0'; c <= '9'; ++c)
        table[c] = static_cast<std::int8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c)
        table[c] = static_cast<std::int8_t>(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c)
        table[c] = static_cast<std::int8_t>(c - 'A' + 10);
    return table;
}

constexpr auto kNibble = makeNibbleTable();

constexpr std::array<std::uint8_t, 256> makeNotLowerHexTable()
{
    std::array<std::uint8_t, 256> table {};
    for (int c = 0; c < 256; ++c)
        table[c] = ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) ? 0 : 1;
    return table;
}

constexpr auto kNotLowerHex = makeNotLowerHexTable();

} // namespace

std::string toHex(const std::uint8_t *data, std::size_t size)
{
    std::string out(size * 2, '\0');
    for (std::size_t i = 0; i < size; ++i) {
        out[2 * i] = kDigits[data[i] >> 4];
        out[2 * i + 1] = kDigits[data[i] & 0x0f];
    }
    return out;
}

bool fromHex(std::string_view hex, std::uint8_t *out, std::size_t size)
{
    if (hex.size() != size * 2)
        return false;
    for (std::size_t i = 0; i < size; ++i) {
        const int high = kNibble[static_cast<unsigned char>(hex[2 * i])];
        const int low = kNibble[static_cast<unsigned char>(hex[2 * i + 1])];
        if ((high | low) < 0)
            return false;
        out[i] = static_cast<std::uint8_t>((high << 4) | low);
    }
    return true;
}

bool isLowerHex(std::string_view text, std::size_t length)
{
    if (text.size() != length)
        return false;
    // Branch-free over the whole string: ids, keys and signatures are checked on every event.
    unsigned bad = 0;
    for (const char c : text)
        bad |= kNotLowerHex[static_cast<unsigned char>(c)];
    return bad == 0;
}

} // namespace buzz::nostr
