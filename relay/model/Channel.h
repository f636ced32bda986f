#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::model {

// One row of `channels`: the relay's view of a NIP-29 group, scoped by community.
struct Channel
{
    std::string community;
    std::string uuid;
    std::string name;
    std::string visibility = "open"; // open | private
    std::string channelType = "stream"; // stream | forum
    std::string about;
    std::optional<std::string> topic;
    std::optional<std::string> purpose;
    std::optional<std::int64_t> ttl;
    bool archived = false;
    std::string createdBy;
    std::int64_t createdAt = 0;
    std::string createEventId;

    bool isOpen() const { return visibility == "open"; }
};

} // namespace buzz::relay::model
