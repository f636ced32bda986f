#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` rows consistency.*: the bridge's `consistency` field (docs/buzz-protocol.md
// §POST /query): "strong" is accepted, any other value is a 400, and where the relay names the
// pool that served a read (our X-Buzz-Read-Route) every strong read was the writer's.
class ConsistencyChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);
};

} // namespace buzz::cli
