#pragma once

#include <string>

namespace buzz::relay::model {

// NIP-10 position of a reply, resolved at ingest (root, direct parent, depth 1 = reply to root).
struct ThreadLink
{
    std::string rootId;
    std::string parentId;
    int depth = 1;
};

} // namespace buzz::relay::model
