#pragma once

#include "relay/model/ChannelMember.h"

#include <optional>
#include <string>

namespace buzz::relay::ingest {

// Who may change whose channel role (NIP-29 kinds 9000 and 9001; docs/buzz-protocol.md
// §Channel roles, §Ingest order step 9).
// Ranks: owner > admin > member, bot, guest. Only owners grant, change or take away the owner and
// admin roles; owners and admins manage members, bots and guests; any member (or bot) may add a
// new member or bot (upstream "let channel members add members and bots without admin"); anyone
// may remove themselves. The last active owner can never be demoted or removed, so a channel
// always has someone who can administer it.
class RoleRules
{
public:
    static constexpr const char *kNotAuthorized = "actor not authorized";
    static constexpr const char *kLastOwner = "cannot remove the last owner";

    // nullopt = allowed; otherwise the reason after "invalid: ".
    // `actor` and `target` are their current rows (absent or removed = not a member);
    // `role` is the 9000 `role` tag (nullopt: keep the current role, or `member` when adding).
    static std::optional<std::string> mayAdd(const std::optional<model::ChannelMember> &actor,
                                             const std::optional<model::ChannelMember> &target,
                                             const std::optional<std::string> &role,
                                             int activeOwners);
    static std::optional<std::string> mayRemove(const std::string &actorPubkey,
                                                const std::optional<model::ChannelMember> &actor,
                                                const std::string &targetPubkey,
                                                const std::optional<model::ChannelMember> &target,
                                                int activeOwners);
    static bool isPrivileged(const std::string &role) { return role == "owner" || role == "admin"; }
};

} // namespace buzz::relay::ingest
