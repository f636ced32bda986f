#include "relay/ingest/KindRules.h"

#include "net/nostr/Event.h"

#include <algorithm>
#include <cctype>

namespace buzz::relay::ingest {

bool KindRules::isAllowedFromClient(int kind)
{
    switch (kind) {
    case 0:
    case 1:
    case 3:
    case 5:
    case 7:
    case 9:
    case 9000:
    case 9001:
    case 9002:
    case 9005:
    case 9007:
    case 9008:
    case 9021:
    case 9022:
    case 20001: // presence: WebSocket only (EventPrechecks), fanned out, never stored
    case 30023: // long-form article: parameterised replaceable, global
    case 40002:
    case 40003:
    case 40100:
    case 45001: // forum post
        return true;
    default:
        return false;
    }
}

bool KindRules::requiresChannel(int kind)
{
    switch (kind) {
    case 9:
    case 9000:
    case 9001:
    case 9002:
    case 9005:
    case 9008:
    case 9022:
    case 40002:
    case 40003:
    case 40100:
    case 45001:
        return true;
    default:
        return false;
    }
}

bool KindRules::isGlobal(int kind)
{
    return kind == 0 || kind == 1 || kind == 3 || kind == 20001 || kind == 30023;
}

bool KindRules::isChannelAdmin(int kind)
{
    return kind >= 9000 && kind <= 9022;
}

bool KindRules::isRelaySigned(int kind)
{
    return kind == 39000 || kind == 39001 || kind == 39002 || kind == 40099 || kind == 44100
        || kind == 44101;
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
               return std::isxdigit(static_cast<unsigned char>(c));
           });
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
