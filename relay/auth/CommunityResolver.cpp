#include "relay/auth/CommunityResolver.h"

#include "net/nostr/RelayUrl.h"

namespace buzz::relay {

void CommunityResolver::addMapping(std::string_view host, std::string community)
{
    m_hostToCommunity[nostr::normalizeHost(host)] = std::move(community);
}

bool CommunityResolver::hasMapping(std::string_view host) const
{
    return m_hostToCommunity.count(nostr::normalizeHost(host)) > 0;
}

std::optional<std::string> CommunityResolver::resolve(std::string_view hostHeader) const
{
    if (hostHeader.empty())
        return std::nullopt;
    const auto it = m_hostToCommunity.find(nostr::normalizeHost(hostHeader));
    if (it == m_hostToCommunity.end())
        return std::nullopt;
    return it->second;
}

} // namespace buzz::relay
