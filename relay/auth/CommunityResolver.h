#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace buzz::relay {

// Host header → community. Hosts are stored and looked up in the real relay's normalised form
// (nostr::normalizeHost), so "LOCALHOST:3000." and "127.0.0.1:3000" name the same community.
class CommunityResolver
{
public:
    // The generic 404 body of the real relay; the host is never echoed back.
    static constexpr std::string_view kUnknownHostError =
        "relay: no community is configured for this host";

    void addMapping(std::string_view host, std::string community);
    bool hasMapping(std::string_view host) const;
    // Empty or unmapped host → nullopt.
    std::optional<std::string> resolve(std::string_view hostHeader) const;
    const std::map<std::string, std::string> &mappings() const { return m_hostToCommunity; }

private:
    std::map<std::string, std::string> m_hostToCommunity;
};

} // namespace buzz::relay
