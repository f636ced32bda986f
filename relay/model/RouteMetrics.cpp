#include "relay/model/RouteMetrics.h"

namespace buzz::relay {

void RouteMetrics::record(ReadPath path, RouteDecisionLabel decision, RouteReason reason)
{
    std::lock_guard lock(m_mutex);
    ++m_counts[Key {path, decision, reason}];
}

std::uint64_t RouteMetrics::count(ReadPath path, RouteDecisionLabel decision,
                                  RouteReason reason) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_counts.find(Key {path, decision, reason});
    return it == m_counts.end() ? 0 : it->second;
}

std::uint64_t RouteMetrics::total(RouteDecisionLabel decision) const
{
    std::lock_guard lock(m_mutex);
    std::uint64_t sum = 0;
    for (const auto &[key, value] : m_counts)
        if (std::get<1>(key) == decision)
            sum += value;
    return sum;
}

std::string RouteMetrics::text() const
{
    std::string out =
        "# HELP buzz_db_route_decision_total Routed reads by caller path, serving pool "
        "and reason.\n# TYPE buzz_db_route_decision_total counter\n";
    std::lock_guard lock(m_mutex);
    for (const auto &[key, value] : m_counts) {
        out += "buzz_db_route_decision_total{path=\"";
        out += toLabel(std::get<0>(key));
        out += "\",decision=\"";
        out += toLabel(std::get<1>(key));
        out += "\",reason=\"";
        out += toLabel(std::get<2>(key));
        out += "\"} ";
        out += std::to_string(value);
        out += '\n';
    }
    return out;
}

} // namespace buzz::relay
