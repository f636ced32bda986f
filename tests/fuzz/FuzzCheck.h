#pragma once

// Invariant checks inside fuzz targets: a broken invariant is a finding, so it aborts (libFuzzer
// then saves the input as crash-<sha1>) after printing what broke.

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#define FUZZ_CHECK(condition, what)                                                                \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "FUZZ INVARIANT BROKEN at %s:%d: %s (%s)\n", __FILE__, __LINE__,  \
                         what, #condition);                                                        \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)

namespace fuzzutil {

// Multi-part inputs are separated by NUL bytes: "base\0mine\0theirs". Missing parts are empty, so
// every input maps to some case and seeds stay readable.
inline std::vector<std::string_view> splitParts(const unsigned char *data, std::size_t size,
                                                std::size_t parts)
{
    std::vector<std::string_view> out;
    std::string_view rest(reinterpret_cast<const char *>(data), size);
    while (out.size() + 1 < parts) {
        const auto at = rest.find('\0');
        if (at == std::string_view::npos)
            break;
        out.push_back(rest.substr(0, at));
        rest.remove_prefix(at + 1);
    }
    out.push_back(rest);
    while (out.size() < parts)
        out.emplace_back();
    return out;
}

// Strict UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF), as a WebSocket text frame must be.
inline bool isUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t extra = 0;
        unsigned min = 0;
        unsigned code = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1, min = 0x80, code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2, min = 0x800, code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3, min = 0x10000, code = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= text.size())
            return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return false;
            code = (code << 6) | (next & 0x3F);
        }
        if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

} // namespace fuzzutil
