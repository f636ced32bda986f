#include "relay/ingest/ThreadResolver.h"

namespace buzz::relay::ingest {

ThreadResolver::Result ThreadResolver::resolve(store::EventLookup &reader,
                                               const std::string &community,
                                               const std::optional<std::string> &channel,
                                               const nostr::Event &event)
{
    const std::string *root = nullptr;
    const std::string *reply = nullptr;
    for (const auto &tag : event.tags) {
        if (tag.size() < 4 || tag[0] != "e")
            continue;
        if (tag[3] == "root" && !root)
            root = &tag[1];
        else if (tag[3] == "reply" && !reply)
            reply = &tag[1];
    }
    if (!root && !reply)
        return {};
    const std::string &parentId = reply ? *reply : *root;
    const auto parent = reader.findById(community, parentId);
    if (!parent || parent->deletedAt)
        return {IngestResult::rejected("invalid: reply parent not found"), std::nullopt};
    if (parent->stored.channel != channel)
        return {IngestResult::rejected("invalid: reply parent belongs to a different channel"),
                std::nullopt};
    const auto parentLink = reader.threadLink(community, parentId);
    const std::string ancestryRoot = parentLink ? parentLink->rootId : parentId;
    if (root && *root != ancestryRoot)
        return {IngestResult::rejected("invalid: root tag does not match thread ancestry"),
                std::nullopt};
    const int depth = parentLink ? parentLink->depth + 1 : 1;
    if (depth > kMaxDepth)
        return {IngestResult::rejected("invalid: thread depth limit exceeded"), std::nullopt};
    return {std::nullopt, model::ThreadLink {ancestryRoot, parentId, depth}};
}

} // namespace buzz::relay::ingest
