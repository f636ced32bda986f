#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace buzz::relay {

// The optional relay-level membership gate (docs/buzz-protocol.md §Relay membership): when
// required, only listed pubkeys (and the relay's own key) may pass NIP-42 AUTH or call the HTTP
// bridge. Immutable after construction, so network and worker threads read it without locking.
class RelayMembership
{
public:
    static constexpr std::string_view kWsRefusal = "restricted: not a relay member";
    // The one bridge error whose body is not {"error":"…"} alone (api/mod.rs upstream).
    static constexpr std::string_view kHttpRefusalBody =
        R"({"error":"relay_membership_required","message":"You must be a relay member to access this relay"})";

    RelayMembership() = default; // gate off: everyone passes
    // `members` and `relayPublicKeyHex` are 64-hex pubkeys (case-insensitive).
    RelayMembership(bool required, const std::vector<std::string> &members,
                    const std::string &relayPublicKeyHex);

    bool isRequired() const { return m_required; }
    // True when the gate is off or `pubkey` (64 lower-case hex) is a member.
    bool admits(std::string_view pubkey) const;

private:
    bool m_required = false;
    std::unordered_set<std::string> m_members;
};

} // namespace buzz::relay
