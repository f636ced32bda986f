#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` rows cas.*: the canvas compare-and-swap of docs/buzz-protocol.md §Canvas CAS,
// with events signed here so each precondition, timestamp and id is exactly the one meant: a
// revision that does not exist, the first write and one built on it, `none` on an existing
// canvas, a stale base, a same-second tie that does not sort ahead, a replay of the head (a
// duplicate, never a conflict), and the head left alone by every refusal. Leaves the head in
// context.head for the groups after it.
class CanvasCasChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);
};

} // namespace buzz::cli
