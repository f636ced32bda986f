#pragma once

#include <QStringList>

#include <qcoro/qcorotask.h>

namespace buzz::cli {

// buzz-canvas-cli: dispatches the command line to the command classes and returns the exit code.
class CliApp
{
public:
    static QCoro::Task<int> run(QStringList arguments); // without the program name
    static QString usageText();
};

} // namespace buzz::cli
