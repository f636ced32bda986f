#pragma once

#include <qcoro/qcorotask.h>

namespace buzz::cli {

class CliContext;

// `canvas get|set|history|restore` — the same CanvasService the desktop uses.
class CanvasCommands
{
public:
    static QCoro::Task<int> run(CliContext &context);

private:
    static QCoro::Task<int> get(CliContext &context, QString channel);
    static QCoro::Task<int> set(CliContext &context, QString channel);
    static QCoro::Task<int> history(CliContext &context, QString channel);
    static QCoro::Task<int> restore(CliContext &context, QString channel);
};

} // namespace buzz::cli
