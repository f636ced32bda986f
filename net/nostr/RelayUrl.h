#pragma once

#include <string>
#include <string_view>

namespace buzz::nostr {

// The real relay's URL normalisation for NIP-42 `relay` and NIP-98 `u` comparison:
// scheme and host lower-cased; one trailing dot of the host dropped and loopback hosts
// (localhost, 127.0.0.0/8, ::1) folded to 127.0.0.1, as normalizeHost does for the Host header
// the expected URL is built from; default ports (:80 for http/ws, :443 for https/wss) dropped;
// trailing '/' on the path trimmed. The scheme is kept (ws ≠ wss).
std::string normalizeRelayUrl(std::string_view url);

// ws://→http://, wss://→https://, trailing '/' trimmed: the HTTP base of a relay URL.
std::string httpBaseFromRelayUrl(std::string_view url);
// http://→ws://, https://→wss://.
std::string wsUrlFromHttpBase(std::string_view url);

// Tenant host normalisation (buzz-core tenant.rs): trim, lower-case, strip :80/:443, one trailing
// dot, fold loopback to 127.0.0.1 keeping a non-default port.
std::string normalizeHost(std::string_view hostHeader);

} // namespace buzz::nostr
