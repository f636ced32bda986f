#pragma once

#include "relay/model/ReadLimits.h"
#include "relay/store/EventQuery.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace buzz::relay::store {

class Statement;

// Filter → one parameterised SQL statement. Everything SQL can express is pushed down (so pages
// are not cut short by post-filtering); the caller still re-matches every row with EventMatcher.
class SqliteFilterSql
{
public:
    using Mode = EventQuery::Mode;
    static constexpr int kMaxLimit = ReadLimits::kMaxLimit;
    static constexpr int kThreadDefaultLimit = ReadLimits::kThreadDefaultLimit;
    static constexpr int kThreadMaxLimit = ReadLimits::kThreadMaxLimit;

    struct Plan
    {
        std::string sql;
        std::vector<std::variant<std::int64_t, std::string>> bindings;
        bool matchesNothing = false;
        void bindTo(Statement &statement) const;
    };

    // `accessibleChannels`: the filter's `#h` values the viewer may read (lower-cased), when the
    // filter has `#h`; ignored otherwise. Without `#h`, `viewerChannels` lists every channel the
    // viewer may read as decided on the writer; null = the access is expressed in SQL against
    // the connection the statement runs on (which must then be the writer's).
    static Plan build(const nostr::Filter &filter, const std::string &community,
                      const std::string &viewer, const std::vector<std::string> &accessibleChannels,
                      Mode mode, const std::vector<std::string> *viewerChannels = nullptr);
    static Plan build(const EventQuery &query)
    {
        return build(query.filter, query.community, query.viewer, query.accessibleChannels,
                     query.mode, query.viewerChannels);
    }
};

} // namespace buzz::relay::store
