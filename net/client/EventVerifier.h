#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace buzz::client {

// What a client checks of every event a relay hands it before anything shows it or decides a
// write on it: a relay (or whoever sits between) can return anything. An event is used only when
//  - its id is the SHA-256 of its canonical form and its BIP-340 signature verifies (a revision
//    "by" someone who never signed it is forged);
//  - it is what was asked for: it matches one of the request's filters — kinds, ids, authors,
//    tags, since/until and the keyset cursor (before_id / after_id) — and, where the filter names
//    exactly one channel (#h), its first `h` tag is that channel, as the relay files it (a canvas
//    of another channel, or with no `h`, is not this channel's). The relay-signed channel state
//    (39000-39002) has no `h`: its channel is the one its `d` tag names, as the relay matches it.
//  - A presence query (every filter kinds:[20001] with authors) is answered by the relay with
//    events it signs itself, one per author (docs/buzz-protocol.md §Presence and typing): such an
//    answer is used only when it is signed by the key the relay names as its own (NIP-11 `self`,
//    `relayKey`), is kind 20001 and names, in its one `p` tag, an author that filter asked about.
//    Without a known relay key no relay-signed answer is used.
// Each event is checked once, where it arrives (HttpBridgeClient::query, RelaySocket); what fails
// is dropped there and counted in the request log (Diagnostics, `--trace`), never shown.
class EventVerifier
{
public:
    // Why `event` must not be used (a short reason for the request log), or nullopt when it may.
    static std::optional<QString> problem(const nostr::Event &event,
                                          const std::vector<nostr::Filter> &asked,
                                          const std::string &relayKey = {});
    // Only the request half (no id or signature check): does `event` answer `filter`?
    static bool answers(const nostr::Event &event, const nostr::Filter &filter);
    // A presence filter the relay answers from its presence table: kinds:[20001] with authors.
    static bool isPresenceQuery(const nostr::Filter &filter);
    // `event` is the relay's answer (signed by `relayKey`) about an author `filter` asked for.
    static bool isRelayPresenceAnswer(const nostr::Event &event, const nostr::Filter &filter,
                                      const std::string &relayKey);
};

// Events a response carried that were not used, for one request-log row.
struct DroppedEvents
{
    int count = 0;
    QString firstReason; // e.g. "invalid schnorr signature (event 3fa1…)"

    void add(const nostr::Event &event, const QString &reason);
};

} // namespace buzz::client
