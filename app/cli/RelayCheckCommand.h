#pragma once

#include <qcoro/qcorotask.h>

namespace buzz::cli {

class CliContext;
struct RelayCheckContext;

// `buzz-canvas-cli [--relay URL] relay check [--json] [--admin-token TOKEN]`: the documented
// battery (README.md "Checking a relay", buzz-canvas-cli(1)) against any relay, in a private
// throwaway channel it creates and deletes where the relay allows. The report goes to stdout
// (text, or one JSON object with --json); exit 0 only when no row failed, else 4 with the failed
// rows named on stderr.
class RelayCheckCommand
{
public:
    static QCoro::Task<int> run(CliContext &context);

private:
    static QCoro::Task<void> createChannel(RelayCheckContext &check);
    static QCoro::Task<void> deleteChannel(RelayCheckContext &check);
};

} // namespace buzz::cli
