#include "RelayProcess.h"

namespace buzz::relay::test {

quint16 startRelayProcess(QProcess &process, QStringList command, const QStringList &arguments,
                          const QProcessEnvironment &environment)
{
    if (command.isEmpty())
        return 0;
    process.setProgram(command.takeFirst());
    process.setArguments(command
                         + QStringList {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}
                         + arguments);
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start();
    if (!process.waitForStarted(10000))
        return 0;
    QByteArray output;
    while (!output.contains('\n')) {
        if (!process.waitForReadyRead(15000))
            return 0;
        output += process.readAllStandardOutput();
    }
    const QByteArray prefix = "listening http://";
    if (!output.startsWith(prefix))
        return 0;
    const QByteArray hostPort = output.mid(prefix.size()).split('\n').first().trimmed();
    return quint16(hostPort.mid(hostPort.lastIndexOf(':') + 1).toUInt());
}

} // namespace buzz::relay::test
