#pragma once

#include "net/nostr/Expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace buzz::nostr::nip19 {

// Bare keys and ids: 64 lower-case hex in, bech32 out (and back). Decoding checks the prefix,
// the checksum and the payload length; errors say which ("wrong prefix: expected npub, got …",
// "bad checksum", "wrong length: expected 32 bytes, got N").
std::string encodeNpub(std::string_view publicKeyHex);
std::string encodeNsec(std::string_view secretKeyHex);
std::string encodeNote(std::string_view eventIdHex);
Expected<std::string> decodeNpub(std::string_view npub);
Expected<std::string> decodeNsec(std::string_view nsec);
Expected<std::string> decodeNote(std::string_view note);

// nevent TLV: 0 = id (32 bytes), 1 = relay (ascii, repeatable), 2 = author (32 bytes), 3 = kind
// (u32 BE).
struct EventPointer
{
    std::string id;
    std::vector<std::string> relays;
    std::optional<std::string> author;
    std::optional<std::uint32_t> kind;
    bool operator==(const EventPointer &) const = default;
};
std::string encodeNevent(const EventPointer &pointer);
Expected<EventPointer> decodeNevent(std::string_view nevent);

// "npub1abcde…wxyz" as the desktop shows it.
std::string shortNpub(std::string_view publicKeyHex);

} // namespace buzz::nostr::nip19
