#pragma once

// relay_bench's summary: one Markdown table, a row per figure, a SQLite column and (when
// PostgreSQL ran) a PostgreSQL column, printed after the BENCH lines.

#include <optional>
#include <string>
#include <vector>

namespace buzz::relay::bench {

class BenchTable
{
public:
    explicit BenchTable(bool postgres)
        : m_postgres(postgres)
    { }

    // A missing value prints as "–"; `decimals` digits after the point.
    void row(const std::string &label, std::optional<double> sqlite, std::optional<double> postgres,
             int decimals = 2);
    // The table to stdout, `note` under it.
    void print(const std::string &note) const;

private:
    struct Row
    {
        std::string label, sqlite, postgres;
    };
    bool m_postgres;
    std::vector<Row> m_rows;
};

} // namespace buzz::relay::bench
