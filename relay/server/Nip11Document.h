#pragma once

#include <string>

namespace buzz::relay {

// The NIP-11 relay information document exactly as the real relay's nip11.rs shapes it
// (docs/buzz-protocol.md §NIP-11), except that supported_nips also lists the NIPs upstream
// implements without advertising (9, 45, 98); `self` names the relay's own pubkey. Upstream appends
// 43 to supported_nips when it has a relay key and requires relay membership; this relay always has
// a key, so the gate alone decides.
std::string nip11DocumentJson(const std::string &relayPublicKeyHex,
                              bool requiresRelayMembership = false);

} // namespace buzz::relay
