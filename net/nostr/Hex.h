#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::nostr {

// Lower-case hex encoding, as every id, pubkey and signature travels on the wire.
std::string toHex(const std::uint8_t *data, std::size_t size);

// Decodes exactly `size` bytes from 2*size hex characters (either case). False on any bad input.
bool fromHex(std::string_view hex, std::uint8_t *out, std::size_t size);

// True when `text` is exactly `length` characters of lower-case hex (the strict wire form).
bool isLowerHex(std::string_view text, std::size_t length);

} // namespace buzz::nostr
