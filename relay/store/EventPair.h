#pragma once

#include <cstdint>
#include <string>

namespace buzz::relay::store {

// A search hit as the index keeps it: the event id next to its signed created_at. Hydration looks
// rows up by both, so the store can go straight to the right rows (an index on (created_at, id))
// instead of matching ids across all history.
struct EventPair
{
    std::string id; // 64 lower-case hex
    std::int64_t createdAt = 0;

    friend bool operator==(const EventPair &, const EventPair &) = default;
};

} // namespace buzz::relay::store
