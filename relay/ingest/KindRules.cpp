#include "relay/ingest/KindRules.h"

#include "net/nostr/Event.h"
#include "net/nostr/Kinds.h"

#include <algorithm>
#include <cctype>

namespace buzz::relay::ingest {

bool KindRules::isAllowedFromClient(int kind)
{
    switch (kind) {
    case nostr::kinds::kProfile:
    case nostr::kinds::kTextNote:
    case nostr::kinds::kContacts:
    case nostr::kinds::kDeletion:
    case nostr::kinds::kReaction:
    case nostr::kinds::kStreamMessage:
    case nostr::kinds::kGroupAddMember:
    case nostr::kinds::kGroupRemoveMember:
    case nostr::kinds::kGroupEditMetadata:
    case nostr::kinds::kGroupDeleteEvent:
    case nostr::kinds::kGroupCreate:
    case nostr::kinds::kGroupDelete:
    case nostr::kinds::kGroupJoin:
    case nostr::kinds::kGroupLeave:
    case nostr::kinds::kPresence: // presence: WebSocket only (EventPrechecks), fanned out, never
                                  // stored
    case nostr::kinds::kTyping: // typing: WebSocket only, fanned out to its channel, never stored
    case nostr::kinds::kLongFormArticle: // long-form article: parameterised replaceable, global
    case nostr::kinds::kStreamMessageV2:
    case nostr::kinds::kMessageEdit:
    case nostr::kinds::kCanvas:
    case nostr::kinds::kForumPost: // forum post
        return true;
    default:
        return false;
    }
}

bool KindRules::requiresChannel(int kind)
{
    switch (kind) {
    case nostr::kinds::kStreamMessage:
    case nostr::kinds::kGroupAddMember:
    case nostr::kinds::kGroupRemoveMember:
    case nostr::kinds::kGroupEditMetadata:
    case nostr::kinds::kGroupDeleteEvent:
    case nostr::kinds::kGroupDelete:
    case nostr::kinds::kGroupLeave:
    case nostr::kinds::kStreamMessageV2:
    case nostr::kinds::kMessageEdit:
    case nostr::kinds::kCanvas:
    case nostr::kinds::kForumPost:
    case nostr::kinds::kTyping:
        return true;
    default:
        return false;
    }
}

bool KindRules::isGlobal(int kind)
{
    return kind == nostr::kinds::kProfile || kind == nostr::kinds::kTextNote
        || kind == nostr::kinds::kContacts || kind == nostr::kinds::kPresence
        || kind == nostr::kinds::kLongFormArticle;
}

bool KindRules::isChannelAdmin(int kind)
{
    return kind >= nostr::kinds::kGroupAddMember && kind <= nostr::kinds::kGroupLeave;
}

bool KindRules::isRelaySigned(int kind)
{
    return kind == nostr::kinds::kGroupMetadata || kind == nostr::kinds::kGroupAdmins
        || kind == nostr::kinds::kGroupMembers || kind == nostr::kinds::kSystemMessage
        || kind == nostr::kinds::kMemberAddedNotice || kind == nostr::kinds::kMemberRemovedNotice;
}

bool KindRules::isUuid(std::string_view text)
{
    if (text.size() != 36)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i])))
            return false;
    }
    return true;
}

bool KindRules::isHex64(std::string_view text)
{
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<std::string> KindRules::nonCanonicalIdError(const nostr::Event &event)
{
    const auto hasUpper = [](std::string_view text) {
        return std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    };
    const bool memberEvent = event.kind == nostr::kinds::kGroupAddMember
        || event.kind == nostr::kinds::kGroupRemoveMember;
    for (const auto &tag : event.tags) {
        if (tag.size() < 2)
            continue;
        if (tag[0] == "h" && !isGlobal(event.kind) && isUuid(tag[1]) && hasUpper(tag[1]))
            return std::string("invalid: channel id must be a lower-case UUID");
        if (tag[0] == "p" && memberEvent && tag[1].size() == 64 && hasUpper(tag[1])
            && std::all_of(tag[1].begin(), tag[1].end(),
                           [](unsigned char c) { return std::isxdigit(c); }))
            return std::string("invalid: p tag must be a lower-case hex public key");
    }
    return std::nullopt;
}

std::optional<std::string> KindRules::channelFromTags(const nostr::Event &event)
{
    for (const auto &tag : event.tags) {
        if (tag.size() >= 2 && tag[0] == "h" && isUuid(tag[1])) {
            std::string uuid = tag[1];
            std::transform(uuid.begin(), uuid.end(), uuid.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return uuid;
        }
    }
    return std::nullopt;
}

} // namespace buzz::relay::ingest
