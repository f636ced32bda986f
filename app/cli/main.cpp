// buzz-canvas-cli: the canvas data layer, headless. Parse, run one command, exit with its code.

#include "CliApp.h"

#include <QCoreApplication>
#include <QCoroTask>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("buzz-canvas"));
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    return QCoro::waitFor(buzz::cli::CliApp::run(arguments));
}
