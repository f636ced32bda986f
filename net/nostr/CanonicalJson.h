#pragma once

#include <string>
#include <string_view>

namespace buzz::nostr {

// Appends `text` as a JSON string literal exactly as serde_json's compact writer does (and so
// as NIP-01 ids are computed): escapes \" \\ \n \r \t \b \f, other bytes below 0x20 as \u00xx
// (lower-case hex), everything else (DEL, '/', non-ASCII UTF-8) raw.
void appendJsonString(std::string &out, std::string_view text);

} // namespace buzz::nostr
