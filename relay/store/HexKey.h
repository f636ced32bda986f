#pragma once

#include <sqlite3.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace buzz::relay::store {

// Event ids, pubkeys and signatures travel as lower-case hex and are stored as the bytes it spells
// (half the size in the row and in every index). Byte order equals the order of the lower-case hex
// text, so `ORDER BY id` and the `before_id` cursor keep the wire order. Only the strict wire form
// converts: upper-case or malformed text has no key, so it matches nothing, exactly as it matched
// no stored hex text before.
class HexKey
{
public:
    // The bytes of `hex` when it is exactly 2 × N lower-case hex characters.
    template<std::size_t N>
    static std::optional<std::array<std::uint8_t, N>> decode(std::string_view hex)
    {
        std::array<std::uint8_t, N> bytes {};
        if (!decodeInto(hex, bytes.data(), N))
            return std::nullopt;
        return bytes;
    }
    static bool decodeInto(std::string_view hex, std::uint8_t *out, std::size_t size);
    static void appendHex(std::string &out, std::string_view bytes);
    static std::string hex(std::string_view bytes);

    // Registers the SQL function `hex_key(text)`: the bytes of lower-case hex text, else NULL
    // (SQLite 3.40 has no unhex(), and unhex() would also accept upper case). Deterministic, so
    // `id = hex_key(?1)` is evaluated once and searches an index.
    static bool registerSqlFunction(sqlite3 *db);
};

} // namespace buzz::relay::store
