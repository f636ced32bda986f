#pragma once

#include <QProcessEnvironment>
#include <QStringList>

namespace buzz::relay {

// `buzz-mock-relay export` and `buzz-mock-relay import` (relay/README.md "Export and import"):
// JSON Lines out of and into the store the serve mode's --data / --database-url (and their
// environment variables) name, while no relay serves it.
class TransferCommand
{
public:
    // Whether `arguments` (program name first) start with one of the subcommands.
    static bool matches(const QStringList &arguments);
    // Runs it; the exit code (0: every line stored or already there; 1: an error or a refused
    // line, each reported on stderr with its line number).
    static int run(const QStringList &arguments, const QProcessEnvironment &environment);
    static QString helpText();
};

} // namespace buzz::relay
