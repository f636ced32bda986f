#pragma once

#include "net/nostr/Event.h"

#include <string_view>

// Internal to buzz_nostr: the allocation-light fast path behind Event::fromJson(std::string_view).
namespace buzz::nostr::detail {

// Parses the common shape of a signed event (the seven NIP-01 keys, each once, no unknown keys,
// no escapes in hex fields). Returns false whenever the text is anything else, valid or not; the
// caller then takes the general path, which owns every error message. So a true result is exactly
// what the general parser would produce, and a false result means nothing.
bool parseEventFast(std::string_view json, Event &event);

// Strict UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF), as JSON parsers and Rust's
// str require.
bool isValidUtf8(std::string_view text);

} // namespace buzz::nostr::detail
