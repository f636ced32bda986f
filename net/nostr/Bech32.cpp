#include "net/nostr/Bech32.h"

#include <array>

#include <string.h> // explicit_bzero

namespace buzz::nostr::bech32 {

namespace {

constexpr char kCharset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

constexpr std::array<std::int8_t, 128> makeReverseCharset()
{
    std::array<std::int8_t, 128> table {};
    for (auto &entry : table)
        entry = -1;
    for (int i = 0; i < 32; ++i) {
        table[static_cast<unsigned char>(kCharset[i])] = static_cast<std::int8_t>(i);
        const char upper =
            kCharset[i] >= 'a' && kCharset[i] <= 'z' ? char(kCharset[i] - 32) : kCharset[i];
        table[static_cast<unsigned char>(upper)] = static_cast<std::int8_t>(i);
    }
    return table;
}

constexpr auto kReverse = makeReverseCharset();

std::uint32_t polymod(const std::vector<std::uint8_t> &values)
{
    static constexpr std::uint32_t kGenerator[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd,
                                                    0x2a1462b3};
    std::uint32_t checksum = 1;
    for (const std::uint8_t value : values) {
        const std::uint32_t top = checksum >> 25;
        checksum = ((checksum & 0x1ffffff) << 5) ^ value;
        for (int i = 0; i < 5; ++i) {
            if ((top >> i) & 1)
                checksum ^= kGenerator[i];
        }
    }
    return checksum;
}

std::vector<std::uint8_t> expandHrp(std::string_view hrp)
{
    std::vector<std::uint8_t> out;
    out.reserve(hrp.size() * 2 + 1);
    for (const char c : hrp)
        out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) >> 5));
    out.push_back(0);
    for (const char c : hrp)
        out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) & 31));
    return out;
}

// Regroups bits; without padding, leftover bits must be fewer than `from` and all zero.
bool convertBits(const std::vector<std::uint8_t> &in, int from, int to, bool pad,
                 std::vector<std::uint8_t> &out)
{
    std::uint32_t accumulator = 0;
    int bits = 0;
    const std::uint32_t maxValue = (1u << to) - 1;
    for (const std::uint8_t value : in) {
        if (value >> from)
            return false;
        accumulator = (accumulator << from) | value;
        bits += from;
        while (bits >= to) {
            bits -= to;
            out.push_back(static_cast<std::uint8_t>((accumulator >> bits) & maxValue));
        }
    }
    if (pad) {
        if (bits)
            out.push_back(static_cast<std::uint8_t>((accumulator << (to - bits)) & maxValue));
    } else if (bits >= from || ((accumulator << (to - bits)) & maxValue)) {
        return false;
    }
    return true;
}

// nsec payloads pass through these buffers: wipe them on every exit. Callers reserve up front so
// no reallocation leaves an unwiped copy behind.
class WipeOnExit
{
public:
    explicit WipeOnExit(std::vector<std::uint8_t> &buffer)
        : m_buffer(buffer)
    { }
    // An empty vector that never allocated has no data() to wipe, and explicit_bzero must not be
    // given the null pointer even for zero bytes (glibc declares it nonnull; UBSan stops there).
    ~WipeOnExit()
    {
        if (!m_buffer.empty())
            explicit_bzero(m_buffer.data(), m_buffer.size());
    }
    WipeOnExit(const WipeOnExit &) = delete;
    WipeOnExit &operator=(const WipeOnExit &) = delete;

private:
    std::vector<std::uint8_t> &m_buffer;
};

char toLower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c + 32) : c;
}

} // namespace

std::string encode(std::string_view hrp, const std::vector<std::uint8_t> &bytes)
{
    std::vector<std::uint8_t> groups;
    groups.reserve(bytes.size() * 8 / 5 + 1);
    const WipeOnExit wipeGroups(groups);
    convertBits(bytes, 8, 5, true, groups);

    std::vector<std::uint8_t> values = expandHrp(hrp);
    values.reserve(values.size() + groups.size() + 6);
    const WipeOnExit wipeValues(values);
    values.insert(values.end(), groups.begin(), groups.end());
    values.resize(values.size() + 6, 0);
    const std::uint32_t checksum = polymod(values) ^ 1;

    std::string out;
    out.reserve(hrp.size() + 1 + groups.size() + 6);
    out.append(hrp);
    out.push_back('1');
    for (const std::uint8_t group : groups)
        out.push_back(kCharset[group]);
    for (int i = 0; i < 6; ++i)
        out.push_back(kCharset[(checksum >> (5 * (5 - i))) & 31]);
    return out;
}

Expected<Decoded> decodeWithReason(std::string_view text, std::size_t maxLength)
{
    if (text.size() > maxLength)
        return Unexpected(std::string("too long"));
    bool hasLower = false;
    bool hasUpper = false;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 33 || byte > 126)
            return Unexpected(std::string("invalid character"));
        hasLower |= c >= 'a' && c <= 'z';
        hasUpper |= c >= 'A' && c <= 'Z';
    }
    if (hasLower && hasUpper)
        return Unexpected(std::string("mixed case"));
    const std::size_t separator = text.rfind('1');
    if (separator == std::string_view::npos || separator == 0)
        return Unexpected(std::string("missing separator"));
    if (text.size() - separator - 1 < 6)
        return Unexpected(std::string("bad checksum"));

    Decoded decoded;
    decoded.hrp.reserve(separator);
    for (std::size_t i = 0; i < separator; ++i)
        decoded.hrp.push_back(toLower(text[i]));

    std::vector<std::uint8_t> values = expandHrp(decoded.hrp);
    values.reserve(values.size() + text.size() - separator - 1);
    const WipeOnExit wipeValues(values);
    const std::size_t dataStart = values.size();
    for (std::size_t i = separator + 1; i < text.size(); ++i) {
        const int value = kReverse[static_cast<unsigned char>(text[i])];
        if (value < 0)
            return Unexpected(std::string("invalid character"));
        values.push_back(static_cast<std::uint8_t>(value));
    }
    if (polymod(values) != 1)
        return Unexpected(std::string("bad checksum"));

    std::vector<std::uint8_t> groups(values.begin() + static_cast<std::ptrdiff_t>(dataStart),
                                     values.end() - 6);
    const WipeOnExit wipeGroups(groups);
    decoded.data.reserve(groups.size() * 5 / 8);
    if (!convertBits(groups, 5, 8, false, decoded.data))
        return Unexpected(std::string("bad padding"));
    return decoded;
}

std::optional<Decoded> decode(std::string_view text, std::size_t maxLength)
{
    Expected<Decoded> decoded = decodeWithReason(text, maxLength);
    if (!decoded)
        return std::nullopt;
    return std::move(decoded).value();
}

} // namespace buzz::nostr::bech32
