#include "relay/routing/ReadShape.h"

#include "net/nostr/Kinds.h"

#include <algorithm>

namespace buzz::relay {

namespace {
const std::vector<std::string> *tagValues(const nostr::Filter &filter, char name)
{
    const auto it = filter.tags.find(name);
    return it == filter.tags.end() ? nullptr : &it->second;
}
} // namespace

ReadShape ReadShape::of(const nostr::Filter &filter)
{
    ReadShape shape;
    const auto *channels = tagValues(filter, 'h');
    const auto *roots = tagValues(filter, 'e');
    shape.threadPage = filter.depthLimit.has_value() && roots && roots->size() == 1;
    // Relay-signed 39000 rows never reference a thread root, so a thread page cannot touch them;
    // any other filter without a kinds list (ID-only, mixed) may, and authority data stays on the
    // writer.
    if (filter.kinds) {
        shape.touchesChannelMetadata =
            std::find(filter.kinds->begin(), filter.kinds->end(), nostr::kinds::kGroupMetadata)
            != filter.kinds->end();
    } else {
        shape.touchesChannelMetadata = !shape.threadPage;
    }
    shape.pinsOneChannel = channels && channels->size() == 1;
    shape.channelRowsOnly = channels && !channels->empty();
    shape.keysetContinuation =
        (filter.until && filter.beforeId) || (filter.since && filter.afterId);
    shape.until = filter.until;
    shape.since = filter.since;
    return shape;
}

} // namespace buzz::relay
