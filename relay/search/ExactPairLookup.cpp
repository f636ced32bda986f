#include "relay/search/ExactPairLookup.h"

#include "relay/store/EventReader.h"
#include "relay/store/SqliteConnection.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace buzz::relay::search {

namespace {
constexpr std::array<std::size_t, 10> kBuckets = {1, 2, 4, 8, 16, 32, 64, 128, 256, 500};
static_assert(kBuckets.back() == ExactPairLookup::kMaxPairs);

std::size_t bucketFor(std::size_t count)
{
    for (const std::size_t bucket : kBuckets) {
        if (count <= bucket)
            return bucket;
    }
    return count;
}

struct PairHash
{
    std::size_t operator()(const EventPair &pair) const noexcept
    {
        return std::hash<std::string>()(pair.id) ^ (std::hash<std::int64_t>()(pair.createdAt) << 1);
    }
};

ExactPairLookup::Rows collect(store::Statement &select)
{
    ExactPairLookup::Rows rows;
    while (select.step())
        rows.events.push_back(store::EventReader::rowToStoredEvent(select));
    rows.ok = select.ok();
    rows.sqliteCode = select.resultCode();
    return rows;
}

ExactPairLookup::Rows prepareFailed(store::SqliteConnection &connection)
{
    ExactPairLookup::Rows rows;
    rows.ok = false;
    rows.sqliteCode = sqlite3_errcode(connection.handle());
    return rows;
}
} // namespace

bool ExactPairLookup::isEventId(std::string_view id)
{
    return id.size() == 64 && std::all_of(id.begin(), id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<std::string> ExactPairLookup::validate(std::span<const EventPair> pairs)
{
    if (pairs.size() > kMaxPairs)
        return "too many event pairs: " + std::to_string(pairs.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (!isEventId(pairs[i].id))
            return "invalid event id at pair " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
        if (pairs[i].createdAt < 0)
            return "invalid created_at at pair " + std::to_string(i) + ": must not be negative";
    }
    return std::nullopt;
}

std::optional<std::string> ExactPairLookup::validateIds(std::span<const std::string> ids)
{
    if (ids.size() > kMaxPairs)
        return "too many event ids: " + std::to_string(ids.size()) + " (max "
            + std::to_string(kMaxPairs) + ")";
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!isEventId(ids[i]))
            return "invalid event id at position " + std::to_string(i)
                + ": must be 64 lower-case hex characters";
    }
    return std::nullopt;
}

std::vector<EventPair> ExactPairLookup::distinct(std::span<const EventPair> pairs)
{
    std::vector<EventPair> out;
    out.reserve(pairs.size());
    std::unordered_set<EventPair, PairHash> seen;
    seen.reserve(pairs.size());
    for (const EventPair &pair : pairs) {
        if (seen.insert(pair).second)
            out.push_back(pair);
    }
    return out;
}

std::string ExactPairLookup::pairSql(std::size_t count, Deleted deleted)
{
    const std::size_t rows = bucketFor(std::max<std::size_t>(count, 1));
    std::string sql = "WITH pairs(created_at, id) AS (VALUES ";
    sql.reserve(64 + rows * 16 + 256);
    for (std::size_t i = 0; i < rows; ++i) {
        if (i)
            sql += ", ";
        sql += "(?" + std::to_string(2 + 2 * i) + ", ?" + std::to_string(3 + 2 * i) + ")";
    }
    // CROSS JOIN pins the pair list as the outer loop: every pair is one SEARCH of
    // events_by_time (created_at=? AND id=?), whatever the table statistics say.
    sql += ") SELECT ";
    sql += store::EventReader::kEventColumns;
    sql += " FROM pairs p CROSS JOIN events e INDEXED BY events_by_time"
           " ON e.created_at = p.created_at AND e.id = p.id WHERE e.community = ?1";
    if (deleted == Deleted::Omit)
        sql += " AND e.deleted_at IS NULL";
    return sql;
}

std::string ExactPairLookup::idSql(std::size_t count)
{
    const std::size_t rows = bucketFor(std::max<std::size_t>(count, 1));
    std::string sql = "WITH wanted(id) AS (VALUES ";
    for (std::size_t i = 0; i < rows; ++i) {
        if (i)
            sql += ", ";
        sql += "(?" + std::to_string(2 + i) + ")";
    }
    sql += ") SELECT ";
    sql += store::EventReader::kEventColumns;
    sql += " FROM wanted w CROSS JOIN events e INDEXED BY events_by_id"
           " ON e.community = ?1 AND e.id = w.id WHERE e.deleted_at IS NULL";
    return sql;
}

ExactPairLookup::Rows ExactPairLookup::findPairs(store::SqliteConnection &connection,
                                                 const std::string &community,
                                                 std::span<const EventPair> pairs, Deleted deleted)
{
    if (pairs.empty())
        return {};
    auto select = connection.prepare(pairSql(pairs.size(), deleted));
    if (!select.valid())
        return prepareFailed(connection);
    select.bindStatic(1, community);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        select.bind(static_cast<int>(2 + 2 * i), pairs[i].createdAt);
        select.bindStatic(static_cast<int>(3 + 2 * i), pairs[i].id);
    }
    return collect(select);
}

ExactPairLookup::Rows ExactPairLookup::findIds(store::SqliteConnection &connection,
                                               const std::string &community,
                                               std::span<const std::string> ids)
{
    if (ids.empty())
        return {};
    auto select = connection.prepare(idSql(ids.size()));
    if (!select.valid())
        return prepareFailed(connection);
    select.bindStatic(1, community);
    for (std::size_t i = 0; i < ids.size(); ++i)
        select.bindStatic(static_cast<int>(2 + i), ids[i]);
    return collect(select);
}

} // namespace buzz::relay::search
