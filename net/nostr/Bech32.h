#pragma once

#include "net/nostr/Expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::nostr::bech32 {

struct Decoded
{
    std::string hrp;
    std::vector<std::uint8_t> data; // 8-bit bytes (already converted from 5-bit groups)
};

// BIP-173 bech32 (not bech32m), as NIP-19 uses. `maxLength` lifts the 90-character limit for TLV.
std::string encode(std::string_view hrp, const std::vector<std::uint8_t> &bytes);
std::optional<Decoded> decode(std::string_view text, std::size_t maxLength = 5000);
// Same, saying why decoding failed: "bad checksum", "invalid character", "mixed case",
// "missing separator", "too long", "bad padding".
Expected<Decoded> decodeWithReason(std::string_view text, std::size_t maxLength = 5000);

} // namespace buzz::nostr::bech32
