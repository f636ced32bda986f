#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::model {

// One row of `channel_members`. A removed member keeps its row with `removedAt` set, and who
// removed them (themselves when they left; an owner or admin otherwise, the only ones who may).
struct ChannelMember
{
    std::string community;
    std::string channel;
    std::string pubkey;
    std::string role = "member"; // owner | admin | member | guest | bot
    std::int64_t joinedAt = 0;
    std::optional<std::int64_t> removedAt;
    std::optional<std::string> removedBy; // unknown for removals stored before schema 4

    bool active() const { return !removedAt.has_value(); }
    bool isAdmin() const { return active() && (role == "owner" || role == "admin"); }
    // Removed by someone else: an owner's or admin's decision, which only they may undo.
    bool removedByOther() const { return !active() && removedBy && *removedBy != pubkey; }
};

} // namespace buzz::relay::model
