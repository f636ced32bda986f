#include "BenchTable.h"

#include <cstdio>

namespace buzz::relay::bench {

namespace {
std::string format(std::optional<double> value, int decimals)
{
    if (!value)
        return "–";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, *value);
    return text;
}
} // namespace

void BenchTable::row(const std::string &label, std::optional<double> sqlite,
                     std::optional<double> postgres, int decimals)
{
    m_rows.push_back({label, format(sqlite, decimals), format(postgres, decimals)});
}

void BenchTable::print(const std::string &note) const
{
    std::printf("\n| relay_bench | SQLite |%s\n|---|---:|%s\n", m_postgres ? " PostgreSQL |" : "",
                m_postgres ? "---:|" : "");
    for (const Row &row : m_rows) {
        if (m_postgres)
            std::printf("| %s | %s | %s |\n", row.label.c_str(), row.sqlite.c_str(),
                        row.postgres.c_str());
        else
            std::printf("| %s | %s |\n", row.label.c_str(), row.sqlite.c_str());
    }
    std::printf("\n%s\n", note.c_str());
    std::fflush(stdout);
}

} // namespace buzz::relay::bench
