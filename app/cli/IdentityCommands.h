#pragma once

#include <qcoro/qcorotask.h>

namespace buzz::cli {

class CliContext;

// `identity show|generate|import` and `event sign|verify` (local: no relay involved).
class IdentityCommands
{
public:
    static QCoro::Task<int> identity(CliContext &context);
    static QCoro::Task<int> event(CliContext &context);

private:
    static QCoro::Task<int> sign(CliContext &context);
    static int verify(CliContext &context);
};

} // namespace buzz::cli
