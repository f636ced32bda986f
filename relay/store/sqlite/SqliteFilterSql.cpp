#include "relay/store/sqlite/SqliteFilterSql.h"

#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace buzz::relay::store {

namespace {
class Builder
{
public:
    explicit Builder(SqliteFilterSql::Plan &plan)
        : m_plan(plan)
    { }

    std::string param(std::int64_t value)
    {
        m_plan.bindings.emplace_back(value);
        return "?" + std::to_string(m_plan.bindings.size());
    }
    std::string param(const std::string &value)
    {
        m_plan.bindings.emplace_back(value);
        return "?" + std::to_string(m_plan.bindings.size());
    }
    // Up to this many values are bound one parameter each (the planner sees them); a longer list
    // is bound as one JSON array read through json_each, so a statement never grows with the
    // list: thousands of numbered parameters made SQLite spend seconds preparing and planning.
    static constexpr std::size_t kMaxInlineValues = 16;

    template<class T>
    std::string inList(const std::vector<T> &values)
    {
        if (values.size() == 1)
            return " = " + param(values.front());
        if (values.size() > kMaxInlineValues) {
            nlohmann::json array = nlohmann::json::array();
            for (const auto &value : values)
                array.push_back(value);
            return " IN (SELECT value FROM json_each("
                + param(array.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
                + "))";
        }
        std::string out = " IN (";
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i)
                out += ", ";
            out += param(values[i]);
        }
        return out + ")";
    }
    // Ids and pubkeys are stored as the bytes of their hex (HexKey): hex_key() turns each
    // bound hex value into them once per statement, so the comparison still searches an index.
    std::string keyParam(const std::string &hex) { return "hex_key(" + param(hex) + ")"; }
    std::string keyList(const std::vector<std::string> &values)
    {
        if (values.size() == 1)
            return " = " + keyParam(values.front());
        std::string out = " IN (";
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i)
                out += ", ";
            out += keyParam(values[i]);
        }
        return out + ")";
    }

private:
    SqliteFilterSql::Plan &m_plan;
};

std::string likePattern(const std::string &word)
{
    std::string out = "%";
    for (char c : word) {
        if (c == '%' || c == '_' || c == '\\')
            out.push_back('\\');
        out.push_back(c);
    }
    return out + "%";
}
} // namespace

void SqliteFilterSql::Plan::bindTo(Statement &statement) const
{
    for (std::size_t i = 0; i < bindings.size(); ++i) {
        const int index = static_cast<int>(i + 1);
        if (const auto *number = std::get_if<std::int64_t>(&bindings[i]))
            statement.bind(index, *number);
        else
            statement.bindStatic(index, std::get<std::string>(bindings[i]));
    }
}

SqliteFilterSql::Plan SqliteFilterSql::build(const nostr::Filter &filter,
                                             const std::string &community,
                                             const std::string &viewer,
                                             const std::vector<std::string> &accessibleChannels,
                                             Mode mode,
                                             const std::vector<std::string> *viewerChannels)
{
    Plan plan;
    Builder b(plan);
    const auto emptyList = [](const auto &list) {
        return list && list->empty();
    };
    if (emptyList(filter.ids) || emptyList(filter.authors) || emptyList(filter.kinds)) {
        plan.matchesNothing = true;
        return plan;
    }
    const std::string communityParam = b.param(community);
    std::string where;
    std::string from;
    std::string order;
    if (mode == Mode::Thread) {
        const std::string &root = filter.tags.at('e').front();
        from = " FROM thread_metadata t JOIN events e ON e.community = t.community AND e.id = "
               "t.event_id";
        where = " WHERE t.community = " + communityParam + " AND t.root_id = " + b.keyParam(root)
            + " AND t.depth <= " + b.param(static_cast<std::int64_t>(*filter.depthLimit))
            + " AND e.deleted_at IS NULL";
        order = " ORDER BY t.created_at ASC, t.event_id ASC";
    } else {
        from = " FROM events e";
        where = " WHERE e.community = " + communityParam + " AND e.deleted_at IS NULL";
        order = " ORDER BY e.created_at DESC, e.id ASC";
    }

    if (filter.tags.count('h')) {
        if (accessibleChannels.empty()) {
            plan.matchesNothing = true;
            return plan;
        }
        where += " AND e.channel" + b.inList(accessibleChannels);
    } else if (viewerChannels) {
        where += viewerChannels->empty()
            ? std::string(" AND e.channel IS NULL")
            : " AND (e.channel IS NULL OR e.channel" + b.inList(*viewerChannels) + ")";
    } else {
        where +=
            " AND (e.channel IS NULL OR e.channel IN (SELECT uuid FROM channels WHERE community = "
            + communityParam
            + " AND visibility = 'open') OR e.channel IN (SELECT channel FROM channel_members "
            + "WHERE community = " + communityParam + " AND pubkey = " + b.param(viewer)
            + " AND removed_at IS NULL))";
    }
    if (filter.kinds)
        where += " AND e.kind" + b.inList(*filter.kinds);
    if (filter.ids)
        where += " AND e.id" + b.keyList(*filter.ids);
    if (filter.authors)
        where += " AND e.pubkey" + b.keyList(*filter.authors);
    for (const auto &[name, values] : filter.tags) {
        if (name == 'h' || (mode == Mode::Thread && name == 'e'))
            continue;
        if (values.empty()) {
            plan.matchesNothing = true;
            return plan;
        }
        where += " AND e.rowid IN (SELECT event_rowid FROM event_tags WHERE community = "
            + communityParam + " AND name = " + b.param(std::string(1, name)) + " AND value"
            + b.inList(values) + ")";
    }
    if (filter.afterId && filter.since) {
        const std::string since = b.param(*filter.since);
        where += " AND (e.created_at > " + since + " OR (e.created_at = " + since + " AND e.id > "
            + b.keyParam(*filter.afterId) + "))";
    } else if (filter.since) {
        where += " AND e.created_at >= " + b.param(*filter.since);
    }
    if (filter.beforeId && filter.until) {
        const std::string until = b.param(*filter.until);
        where += " AND (e.created_at < " + until + " OR (e.created_at = " + until + " AND e.id > "
            + b.keyParam(*filter.beforeId) + "))";
    } else if (filter.until) {
        where += " AND e.created_at <= " + b.param(*filter.until);
    }
    if (filter.search) {
        std::istringstream words(*filter.search);
        std::string word;
        while (words >> word)
            where += " AND e.content LIKE " + b.param(likePattern(word)) + " ESCAPE '\\'";
    }

    if (mode == Mode::Count) {
        plan.sql = "SELECT COUNT(*)" + from + where;
        return plan;
    }
    plan.sql = std::string("SELECT ") + SqliteEventReader::kEventColumns + from + where + order
        + " LIMIT " + b.param(static_cast<std::int64_t>(EventQuery::effectiveLimit(filter, mode)));
    return plan;
}

} // namespace buzz::relay::store
