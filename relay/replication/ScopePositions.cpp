#include "relay/replication/ScopePositions.h"

#include <algorithm>
#include <cctype>

namespace buzz::relay::replication {

std::string ScopePositions::key(const std::string &community, const std::string &channel,
                                const std::string &kind)
{
    // Channels compare lower-case, as the store keeps them; a NUL occurs in no part.
    std::string out;
    out.reserve(community.size() + channel.size() + kind.size() + 2);
    out += community;
    out += '\0';
    for (const char c : channel)
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += '\0';
    out += kind;
    return out;
}

void ScopePositions::raise(const std::string &key, std::int64_t position)
{
    if (const auto it = m_positions.find(key); it != m_positions.end())
        it->second = std::max(it->second, position);
    else
        m_positions.emplace(key, position);
}

std::int64_t ScopePositions::find(const std::string &key) const
{
    const auto it = m_positions.find(key);
    return it == m_positions.end() ? 0 : it->second;
}

void ScopePositions::committed(const std::string &community,
                               const std::optional<std::string> &channel, int kind,
                               bool changesOtherKinds, std::int64_t position)
{
    // One key per scope, its last part replaced for each entry.
    std::string scope = key(community, channel ? *channel : std::string(), {});
    const std::size_t base = scope.size();
    std::lock_guard lock(m_mutex);
    scope += std::to_string(kind);
    raise(scope, position);
    scope.resize(base);
    scope += kAnyKind;
    raise(scope, position);
    if (changesOtherKinds) {
        scope.resize(base);
        scope += kOtherKinds;
        raise(scope, position);
    }
    if (m_positions.size() < m_pruneAt)
        return;
    const std::int64_t applied = m_appliedByAll;
    if (std::erase_if(m_positions, [applied](const auto &item) { return item.second <= applied; }))
        m_pruned = applied; // a forgotten scope still asks for this much (no cost for any replica)
    m_pruneAt = std::max<std::size_t>(1024, 2 * m_positions.size());
}

std::int64_t ScopePositions::required(const std::string &community,
                                      const ReadRequest::LiveScope &scope) const
{
    std::lock_guard lock(m_mutex);
    std::int64_t position = m_pruned;
    const auto take = [&](const std::string &channel) {
        if (!scope.kinds) {
            position = std::max(position, find(key(community, channel, kAnyKind)));
            return;
        }
        position = std::max(position, find(key(community, channel, kOtherKinds)));
        for (const int kind : *scope.kinds)
            position = std::max(position, find(key(community, channel, std::to_string(kind))));
    };
    if (scope.outsideChannels)
        take({});
    for (const std::string &channel : scope.channels)
        take(channel);
    return position;
}

void ScopePositions::setAppliedByAll(std::int64_t position)
{
    std::lock_guard lock(m_mutex);
    m_appliedByAll = std::max(m_appliedByAll, position);
}

std::size_t ScopePositions::size() const
{
    std::lock_guard lock(m_mutex);
    return m_positions.size();
}

} // namespace buzz::relay::replication
