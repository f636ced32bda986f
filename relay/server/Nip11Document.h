#pragma once

#include <string>

namespace buzz::relay {

// The NIP-11 relay information document exactly as the real relay's nip11.rs shapes it
// (reference §9); `self` names the relay's own pubkey.
std::string nip11DocumentJson(const std::string &relayPublicKeyHex);

} // namespace buzz::relay
