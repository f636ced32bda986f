#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::nostr {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);
std::string sha256Hex(std::string_view data);

} // namespace buzz::nostr
