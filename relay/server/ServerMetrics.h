#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace buzz::relay {

// The network side's own Prometheus series (HTTP and WebSocket counters). Touched only on the
// server's thread, so no locking; the engine's series are appended by RelayServer.
class ServerMetrics
{
public:
    // `series` is the full series name with labels, e.g.
    // buzz_http_requests_total{route="/query",status="200"}.
    void increment(const std::string &series, std::uint64_t by = 1);
    void setGauge(const std::string &series, std::int64_t value);
    std::uint64_t counter(const std::string &series) const;

    // Prometheus text exposition, one `# TYPE` line per metric family.
    std::string text() const;

    static std::string httpSeries(std::string_view route, int status);
    static std::string labelled(std::string_view name, std::string_view label,
                                std::string_view value);

private:
    std::map<std::string, std::uint64_t> m_counters;
    std::map<std::string, std::int64_t> m_gauges;
};

} // namespace buzz::relay
