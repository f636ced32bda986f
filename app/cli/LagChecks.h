#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` rows routed.*: how long a write takes to show on a display read (no
// consistency: a replica may serve it), p50 and p99 over several writes, and which pool served
// those reads; with --admin-token on our relay, that the lag stays within the relay's staleness
// budget (docs/buzz-protocol.md §Read consistency). Sets context.routedLagMaxMs.
class LagChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);

private:
    static QCoro::Task<void> withinBudget(RelayCheckContext &context, qint64 p99Ms);
};

} // namespace buzz::cli
