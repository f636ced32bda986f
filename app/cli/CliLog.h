#pragma once

namespace buzz::cli {

// The CLI's stderr contract for Qt's log (qCDebug … qCCritical from the client libraries): every
// message becomes one line "log: <category>: <text>" on stderr, never on stdout, so stdout holds
// only the command's result and each stderr line says what it is. Debug and info messages are
// hidden unless `verbose` (--trace); QT_LOGGING_RULES still overrides both ways.
class CliLog
{
public:
    static void install(bool verbose);
    // The final JSON error line was written: it must stay the last line of stderr, so log lines
    // that come later (teardown) are dropped.
    static void close();
};

} // namespace buzz::cli
