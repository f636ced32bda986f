#include "relay/replication/ReplicationConfig.h"

#include "relay/model/RouteTypes.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace buzz::relay::replication {

namespace {
std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}
} // namespace

std::optional<std::string> ReplicationConfig::applyEnvironment(ReplicationConfig &config)
{
    if (const char *legacy = std::getenv("BUZZ_REPLICA_HEAD_MAX_AGE_SECS"); legacy && *legacy)
        return "BUZZ_REPLICA_HEAD_MAX_AGE_SECS is no longer supported; set "
               "BUZZ_REPLICA_READ_MAX_AGE_MS (milliseconds) instead";
    if (const char *budget = std::getenv("BUZZ_REPLICA_READ_MAX_AGE_MS"); budget && *budget) {
        const auto value = parseInteger(budget);
        if (!value || *value < 0)
            return std::string("BUZZ_REPLICA_READ_MAX_AGE_MS must be a non-negative integer (got ")
                + budget + ")";
        config.budgetMs = clampReadBudgetMs(*value);
    }
    if (const char *pool = std::getenv("BUZZ_DB_READ_POOL_SIZE"); pool && *pool) {
        const auto value = parseInteger(pool);
        if (!value || *value < 1 || *value > 256)
            return std::string("BUZZ_DB_READ_POOL_SIZE must be an integer in 1..256 (got ") + pool
                + ")";
        config.readPoolSize = static_cast<int>(*value);
    }
    return std::nullopt;
}

} // namespace buzz::relay::replication
