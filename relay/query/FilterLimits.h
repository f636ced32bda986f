#pragma once

#include "net/nostr/Filter.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::query {

// How many values one filter field (ids, authors, kinds, each #x) may list. The reference names
// no such limit; 1 000 is twice the largest list a first-party client sends (500 channel ids or
// search hits), and with FilterSql binding a large list as one JSON array it reads in
// milliseconds. More is refused before any connection is taken.
class FilterLimits
{
public:
    static constexpr std::size_t kMaxValuesPerField = 1000;

    // nullopt when every field is within the limit; otherwise the refusal, e.g.
    // "invalid: filter ids has 80000 values, maximum is 1000".
    static std::optional<std::string> check(const std::vector<nostr::Filter> &filters);
};

} // namespace buzz::relay::query
