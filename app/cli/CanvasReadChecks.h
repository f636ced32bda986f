#pragma once

#include "RelayCheckContext.h"

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// `relay check` rows canvas.*: what a client's save relies on after the relay accepted it
// (docs/buzz-protocol.md §Post-write verification): the writer's history walked from the head
// through each revision's expected-revision reaches the write and, link by link, the canvas's
// first revision; and a strong head read right after each accepted write returns that write.
class CanvasReadChecks
{
public:
    static QCoro::Task<void> run(RelayCheckContext &context);

private:
    static QCoro::Task<void> ancestry(RelayCheckContext &context);
    static QCoro::Task<void> readYourWrite(RelayCheckContext &context);
};

} // namespace buzz::cli
