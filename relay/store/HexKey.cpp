#include "relay/store/HexKey.h"

#include "net/nostr/Hex.h"

#include <vector>

namespace buzz::relay::store {

namespace {
constexpr char kDigits[] = "0123456789abcdef";

void hexKeyFunction(sqlite3_context *context, int, sqlite3_value **arguments)
{
    if (sqlite3_value_type(arguments[0]) != SQLITE_TEXT)
        return; // NULL
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(arguments[0]));
    const auto size = static_cast<std::size_t>(sqlite3_value_bytes(arguments[0]));
    if (size == 0 || size % 2 != 0)
        return;
    std::array<std::uint8_t, 64> small {};
    std::vector<std::uint8_t> large;
    std::uint8_t *out = small.data();
    if (size / 2 > small.size()) {
        large.resize(size / 2);
        out = large.data();
    }
    if (!HexKey::decodeInto(std::string_view(text, size), out, size / 2))
        return;
    sqlite3_result_blob(context, out, static_cast<int>(size / 2), SQLITE_TRANSIENT);
}
} // namespace

bool HexKey::decodeInto(std::string_view hex, std::uint8_t *out, std::size_t size)
{
    return nostr::isLowerHex(hex, 2 * size) && nostr::fromHex(hex, out, size);
}

void HexKey::appendHex(std::string &out, std::string_view bytes)
{
    const std::size_t start = out.size();
    out.resize(start + 2 * bytes.size());
    char *write = out.data() + start;
    for (const char byte : bytes) {
        const auto value = static_cast<unsigned char>(byte);
        *write++ = kDigits[value >> 4];
        *write++ = kDigits[value & 15];
    }
}

std::string HexKey::hex(std::string_view bytes)
{
    std::string out;
    appendHex(out, bytes);
    return out;
}

bool HexKey::registerSqlFunction(sqlite3 *db)
{
    return sqlite3_create_function_v2(db, "hex_key", 1,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      nullptr, &hexKeyFunction, nullptr, nullptr, nullptr)
        == SQLITE_OK;
}

} // namespace buzz::relay::store
