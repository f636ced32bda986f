#include "relay/server/ServerMetrics.h"

#include <set>

namespace buzz::relay {

namespace {

std::string familyOf(const std::string &series)
{
    const auto brace = series.find('{');
    return brace == std::string::npos ? series : series.substr(0, brace);
}

template<class Map>
void appendFamilies(std::string &out, const Map &series, std::string_view type)
{
    std::string currentFamily;
    for (const auto &[name, value] : series) {
        const std::string family = familyOf(name);
        if (family != currentFamily) {
            out += "# TYPE " + family + " " + std::string(type) + "\n";
            currentFamily = family;
        }
        out += name + " " + std::to_string(value) + "\n";
    }
}

} // namespace

void ServerMetrics::increment(const std::string &series, std::uint64_t by)
{
    m_counters[series] += by;
}

void ServerMetrics::setGauge(const std::string &series, std::int64_t value)
{
    m_gauges[series] = value;
}

std::uint64_t ServerMetrics::counter(const std::string &series) const
{
    const auto it = m_counters.find(series);
    return it == m_counters.end() ? 0 : it->second;
}

std::string ServerMetrics::text() const
{
    std::string out;
    appendFamilies(out, m_counters, "counter");
    appendFamilies(out, m_gauges, "gauge");
    return out;
}

std::string ServerMetrics::httpSeries(std::string_view route, int status)
{
    return "buzz_http_requests_total{route=\"" + std::string(route) + "\",status=\""
        + std::to_string(status) + "\"}";
}

std::string ServerMetrics::labelled(std::string_view name, std::string_view label,
                                    std::string_view value)
{
    return std::string(name) + "{" + std::string(label) + "=\"" + std::string(value) + "\"}";
}

} // namespace buzz::relay
