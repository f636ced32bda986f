#include "relay/ingest/RoleRules.h"

namespace buzz::relay::ingest {

namespace {

bool isActive(const std::optional<model::ChannelMember> &member)
{
    return member && member->active();
}

bool isOwner(const std::optional<model::ChannelMember> &member)
{
    return isActive(member) && member->role == "owner";
}

bool isAdminOrOwner(const std::optional<model::ChannelMember> &member)
{
    return isActive(member) && RoleRules::isPrivileged(member->role);
}

} // namespace

std::optional<std::string> RoleRules::mayAdd(const std::optional<model::ChannelMember> &actor,
                                             const std::optional<model::ChannelMember> &target,
                                             const std::optional<std::string> &role,
                                             int activeOwners)
{
    if (!isActive(actor) || actor->role == "guest")
        return std::string(kNotAuthorized);
    // Someone an owner or admin removed comes back only through an owner or admin: any member may
    // add people, but not undo that decision. Who left of their own accord, anyone may add again.
    if (target && target->removedByOther() && !isAdminOrOwner(actor))
        return std::string(kNotAuthorized);
    const bool targetActive = isActive(target);
    const std::string current = targetActive ? target->role : std::string();
    const std::string wanted = role ? *role : (targetActive ? current : std::string("member"));

    if (isPrivileged(wanted) || isPrivileged(current)) {
        // Granting, changing or taking away owner/admin.
        if (targetActive && current == wanted)
            return isAdminOrOwner(actor) ? std::nullopt
                                         : std::optional<std::string>(kNotAuthorized);
        if (!isOwner(actor))
            return std::string(kNotAuthorized);
        if (current == "owner" && wanted != "owner" && activeOwners <= 1)
            return std::string(kLastOwner);
        return std::nullopt;
    }
    if (targetActive && current != wanted)
        return isAdminOrOwner(actor) ? std::nullopt : std::optional<std::string>(kNotAuthorized);
    if (wanted == "guest" && !isAdminOrOwner(actor))
        return std::string(kNotAuthorized);
    return std::nullopt; // a member or bot added (or re-added as what it is) by any member
}

std::optional<std::string> RoleRules::mayRemove(const std::string &actorPubkey,
                                                const std::optional<model::ChannelMember> &actor,
                                                const std::string &targetPubkey,
                                                const std::optional<model::ChannelMember> &target,
                                                int activeOwners)
{
    const bool self = actorPubkey == targetPubkey;
    if (!self) {
        if (!isAdminOrOwner(actor))
            return std::string(kNotAuthorized);
        if (isActive(target) && isPrivileged(target->role) && !isOwner(actor))
            return std::string(kNotAuthorized);
    }
    if (isOwner(target) && activeOwners <= 1)
        return std::string(kLastOwner);
    return std::nullopt;
}

} // namespace buzz::relay::ingest
