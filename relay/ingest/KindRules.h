#pragma once

#include "net/nostr/Kinds.h"

#include <optional>
#include <string>
#include <string_view>

namespace buzz::nostr {
struct Event;
}

namespace buzz::relay::ingest {

// Which kinds the relay accepts from clients and how each is scoped (docs/buzz-protocol.md §Kinds,
// §Ingest order steps 4–6).
class KindRules
{
public:
    static bool isAllowedFromClient(int kind);
    // Kinds that must carry an `h` tag (step 6). 9021 has its own message and is not listed.
    static bool requiresChannel(int kind);
    // Kinds stored without a channel even when they carry an `h` tag.
    static bool isGlobal(int kind);
    // NIP-29 admin kinds whose rules live in ChannelAdmin (step 9).
    static bool isChannelAdmin(int kind);
    // Kinds the relay signs itself; never accepted from clients.
    static bool isRelaySigned(int kind);
    static bool isDeletion(int kind)
    {
        return kind == nostr::kinds::kDeletion || kind == nostr::kinds::kGroupDeleteEvent;
    }

    // The first `h` value that parses as a UUID, lower-cased (the resolved channel id).
    static std::optional<std::string> channelFromTags(const nostr::Event &event);
    // A UUID in either case (channelFromTags resolves it lower-cased).
    static bool isUuid(std::string_view text);
    // 64 lower-case hex digits: an event id or a public key as the wire writes them.
    static bool isHex64(std::string_view text);
    // The `invalid:` refusal of an event naming a channel or a member key in other than its
    // canonical form: an `h` that is a UUID not in lower case (kinds scoped by `h`), a 9000/9001
    // `p` that is hex not in lower case. `#h` and `#p` reads post-match the tag as written
    // (docs/buzz-protocol.md §POST /query) while the relay resolves the channel lower-cased, so
    // such an event was stored under its channel (a canvas could become the compare-and-swap head)
    // yet no read by that channel returned it, and an upper-case key got a member row nobody signs
    // for.
    static std::optional<std::string> nonCanonicalIdError(const nostr::Event &event);
};

} // namespace buzz::relay::ingest
