#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace buzz::nostr {

using Sha256Digest = std::array<std::uint8_t, 32>;

// FIPS 180-4 SHA-256. Uses the CPU's SHA extensions where it has them (x86-64 SHA-NI, checked
// once at run time), else Qt's portable implementation; both give the same digest.
Sha256Digest sha256(std::string_view data);
std::string sha256Hex(std::string_view data);
bool sha256UsesCpuExtensions();

} // namespace buzz::nostr
