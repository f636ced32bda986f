#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace buzz::relay::test {

// The real buzz-mock-relay executable as a child process, for the tests and benches that need a
// process (SIGKILL recovery, option and environment wiring, load). Runs `command` (the binary, or a
// tool and its arguments ending with the binary, e.g. perf record … -- buzz-mock-relay) with
// `--listen 127.0.0.1:0` plus `arguments` and returns the port of its one `listening
// http://host:port` line; 0 when it did not start or printed something else within 15 s.
quint16 startRelayProcess(
    QProcess &process, QStringList command, const QStringList &arguments = {},
    const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

} // namespace buzz::relay::test
