#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::model {

// One row of `channel_members`. A removed member keeps its row with `removedAt` set.
struct ChannelMember
{
    std::string community;
    std::string channel;
    std::string pubkey;
    std::string role = "member"; // owner | admin | member | guest | bot
    std::int64_t joinedAt = 0;
    std::optional<std::int64_t> removedAt;

    bool active() const { return !removedAt.has_value(); }
    bool isAdmin() const { return active() && (role == "owner" || role == "admin"); }
};

} // namespace buzz::relay::model
