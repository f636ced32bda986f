#include "relay/store/EventQuery.h"

#include "relay/model/ReadLimits.h"

namespace buzz::relay::store {

int EventQuery::effectiveLimit(const nostr::Filter &filter, Mode mode)
{
    return mode == Mode::Thread ? ReadLimits::threadPageLimit(filter)
                                : ReadLimits::pageLimit(filter);
}

} // namespace buzz::relay::store
