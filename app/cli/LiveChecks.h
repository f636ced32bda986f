#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` row live.convergence: a live subscription opened right after a write still
// converges on the head, however far a replica lags (relay/README.md "A subscription
// converges"): the write made just before the REQ arrives in its history, and the one made once
// it is live arrives live.
class LiveChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);
};

} // namespace buzz::cli
