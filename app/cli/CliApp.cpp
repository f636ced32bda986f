#include "CliApp.h"

#include "BuzzVersion.h"
#include "CanvasCommands.h"
#include "ChannelCommands.h"
#include "CliContext.h"
#include "CliLog.h"
#include "IdentityCommands.h"
#include "RelayCheckCommand.h"

namespace buzz::cli {

QString CliApp::usageText()
{
    return QStringLiteral(
        "Usage: buzz-canvas-cli [global options] COMMAND [options]\n"
        "\n"
        "Commands:\n"
        "  canvas get [--revision ID]           print the canvas Markdown (raw) or null\n"
        "  canvas set --content TEXT|-          save (compare-and-swap against the current head)\n"
        "             [--unconditional]         legacy append without the revision precondition\n"
        "             [--expected-revision ID|none]  send exactly this precondition; the relay\n"
        "                                       decides (default: the head read just before)\n"
        "  canvas history [--limit N]           revisions, newest first (JSON)\n"
        "  canvas restore --revision ID         publish an older revision as the new head\n"
        "  channels list                        channels you belong to and open channels\n"
        "  channels create --name NAME [--about TEXT] [--private] [--type stream|forum]\n"
        "  channels join|leave|info --channel UUID\n"
        "  search QUERY [--profiles] [--limit N] search canvases (or people by name)\n"
        "  identity show|generate|import [KEY|-] [--show-secret]\n"
        "  event sign                           stdin JSON template -> signed event\n"
        "  event verify                         stdin, one event per line -> {\"valid\",\"id\"} "
        "per line\n"
        "  relay check [--json] [--admin-token TOKEN]\n"
        "                                       the relay battery in a throwaway channel; exit 0\n"
        "                                       only if no row failed (see the man page)\n"
        "\n"
        "Global options:\n"
        "  --relay URL          relay (env BUZZ_RELAY_URL, default http://localhost:3000)\n"
        "  --private-key KEY    hex or nsec (env BUZZ_PRIVATE_KEY; else the stored identity)\n"
        "  --channel UUID       channel (env BUZZ_CHANNEL)\n"
        "  --trace              print every relay request (caller, consistency, status, latency,\n"
        "                       route) to stderr, and the client's info and debug log\n"
        "  --version, --help\n"
        "\n"
        "Environment: BUZZ_RELAY_URL, BUZZ_PRIVATE_KEY, BUZZ_CHANNEL; BUZZ_CLI_DIR (identity\n"
        "folder, default ~/.local/share/buzz-canvas); BUZZ_USE_KEYCHAIN.\n"
        "\n"
        "Output: the result on stdout only (JSON; `canvas get` prints the Markdown itself).\n"
        "stderr is for people: lines starting \"warning: \", \"trace: \" (--trace) or \"log: \"\n"
        "and, on failure, one last line {\"error\":CATEGORY,\"message\":TEXT}.\n"
        "On a terminal, control characters from content (escape sequences) show as \\u00XX;\n"
        "into a pipe or a file the bytes are written unchanged.\n"
        "Exit codes: 0 ok, 1 usage/not found, 2 relay/network, 3 auth, 4 other, 5 conflict.\n");
}

QCoro::Task<int> CliApp::run(QStringList arguments)
{
    CliArguments parsed;
    const bool parsedOk = parsed.parse(arguments);
    CliLog::install(parsed.flag(QStringLiteral("trace")));
    if (!parsedOk) {
        CliContext context(parsed);
        co_return context.usageError(parsed.error());
    }
    if (parsed.flag(QStringLiteral("version"))) {
        CliContext::printRaw(QByteArrayLiteral("buzz-canvas-cli " BUZZ_VERSION_FULL "\n"));
        co_return ExitCode::Ok;
    }
    if (parsed.flag(QStringLiteral("help")) || parsed.positional().isEmpty()
        || parsed.word(0) == QLatin1String("help")) {
        CliContext::printRaw(usageText().toUtf8());
        co_return parsed.positional().isEmpty() && !parsed.flag(QStringLiteral("help"))
            ? ExitCode::Usage
            : ExitCode::Ok;
    }
    CliContext context(parsed);
    if (const auto problem = CliContext::environmentProblem())
        co_return context.usageError(*problem);
    const QString command = parsed.word(0);
    if (command == QLatin1String("canvas"))
        co_return co_await CanvasCommands::run(context);
    if (command == QLatin1String("channels"))
        co_return co_await ChannelCommands::channels(context);
    if (command == QLatin1String("search"))
        co_return co_await ChannelCommands::search(context);
    if (command == QLatin1String("identity"))
        co_return co_await IdentityCommands::identity(context);
    if (command == QLatin1String("event"))
        co_return co_await IdentityCommands::event(context);
    if (command == QLatin1String("relay"))
        co_return co_await RelayCheckCommand::run(context);
    co_return context.usageError(QStringLiteral("unknown command: ") + command
                                 + QStringLiteral(" (see --help)"));
}

} // namespace buzz::cli
