#pragma once

#include "SoakChecker.h"
#include "SoakLedger.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace buzz::soak {

struct SoakConfig
{
    int seconds = 30;
    int clients = 6;
    int channels = 3;
    int replicas = 2;
    std::uint32_t seed = 0;
    std::vector<qint64> skews;
    bool hung = false;
};

// The Markdown report: configuration, the counts table, every anomaly (capped).
QString soakReport(const SoakConfig &config, const SoakLedger &ledger, const SoakCounts &counts,
                   double ranSeconds);
bool writeReport(const QString &path, const QString &report);

} // namespace buzz::soak
