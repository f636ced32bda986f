#pragma once

#include <array>

// Event kinds the app, the CLI and the relay name in code (docs/buzz-protocol.md §Kinds). Code
// says `kinds::kCanvas`, never `40100`, so a search for a kind finds every place that handles it.
namespace buzz::nostr::kinds {

inline constexpr int kProfile = 0; // NIP-01 metadata (replaceable)
inline constexpr int kTextNote = 1;
inline constexpr int kContacts = 3; // NIP-02 follow list (replaceable)
inline constexpr int kDeletion = 5; // NIP-09
inline constexpr int kReaction = 7;
inline constexpr int kStreamMessage = 9;
inline constexpr int kGiftWrap = 1059; // NIP-17, #p-gated, WebSocket only

// NIP-29 channel administration.
inline constexpr int kGroupAddMember = 9000;
inline constexpr int kGroupRemoveMember = 9001;
inline constexpr int kGroupEditMetadata = 9002;
inline constexpr int kGroupDeleteEvent = 9005;
inline constexpr int kGroupCreate = 9007;
inline constexpr int kGroupDelete = 9008;
inline constexpr int kGroupJoin = 9021;
inline constexpr int kGroupLeave = 9022;

inline constexpr int kPresence = 20001; // ephemeral, WebSocket only
inline constexpr int kTyping = 20002; // ephemeral, scoped by h, WebSocket only
inline constexpr int kLongFormArticle = 30023; // NIP-23, replaceable per (pubkey, d)
inline constexpr int kAuth = 22242; // NIP-42, only inside AUTH
inline constexpr int kHttpAuth = 27235; // NIP-98, only inside the Authorization header

// Relay-signed channel state (replaceable per kind, relay key and channel).
inline constexpr int kGroupMetadata = 39000;
inline constexpr int kGroupAdmins = 39001;
inline constexpr int kGroupMembers = 39002;

inline constexpr int kStreamMessageV2 = 40002;
inline constexpr int kMessageEdit = 40003;
inline constexpr int kSystemMessage = 40099; // relay-signed
inline constexpr int kCanvas = 40100; // one revision of a channel's Markdown canvas
inline constexpr int kMemberAddedNotice = 44100; // relay-signed, #p-gated
inline constexpr int kMemberRemovedNotice = 44101; // relay-signed, #p-gated
inline constexpr int kForumPost = 45001;
inline constexpr int kForumComment = 45003;

// Relay-only sidecars (docs/buzz-protocol.md §Kinds, which names them only as a set): never
// accepted from a client ("restricted: relay-only kind").
inline constexpr std::array<int, 4> kRelayOnlySidecars {40901, 40902, 30621, 30622};
constexpr bool isRelayOnlySidecar(int kind)
{
    for (int sidecar : kRelayOnlySidecars) {
        if (kind == sidecar)
            return true;
    }
    return false;
}

} // namespace buzz::nostr::kinds
