#include "relay/auth/RelayMembership.h"

#include <algorithm>
#include <cctype>

namespace buzz::relay {

namespace {

std::string lowerCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

} // namespace

RelayMembership::RelayMembership(bool required, const std::vector<std::string> &members,
                                 const std::string &relayPublicKeyHex)
    : m_required(required)
{
    for (const std::string &member : members)
        m_members.insert(lowerCase(member));
    // The relay signs its own events and must never lock itself out.
    if (!relayPublicKeyHex.empty())
        m_members.insert(lowerCase(relayPublicKeyHex));
}

bool RelayMembership::admits(std::string_view pubkey) const
{
    return !m_required || m_members.count(std::string(pubkey)) != 0;
}

} // namespace buzz::relay
