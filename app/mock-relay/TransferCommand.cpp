#include "app/mock-relay/TransferCommand.h"

#include "app/mock-relay/EventImport.h"
#include "app/mock-relay/RelayConfig.h"
#include "relay/RelayEngine.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sys/resource.h>

namespace buzz::relay {

namespace {
struct TransferOptions
{
    QString command;
    std::string community = "local";
    std::optional<std::string> file; // --input / --output; none = stdin / stdout
    bool stopOnError = false;
    QStringList rest; // the serve mode's database options
};

int fail(const std::string &message)
{
    std::fprintf(stderr, "buzz-mock-relay: %s\n", message.c_str());
    return 1;
}

// The subcommand's own options; everything else goes to RelayConfig.
std::optional<TransferOptions> parse(const QStringList &arguments, std::string &error)
{
    TransferOptions options;
    options.community = "local"; // RelayServer's default community
    options.command = arguments.value(1);
    options.rest << arguments.value(0);
    for (int i = 2; i < arguments.size(); ++i) {
        const QString &argument = arguments[i];
        const auto value = [&](const QString &name) -> std::optional<QString> {
            if (argument.startsWith(name + QLatin1Char('=')))
                return argument.mid(name.size() + 1);
            if (argument != name)
                return std::nullopt;
            if (i + 1 >= arguments.size()) {
                error = name.toStdString() + " expects a value";
                return QString();
            }
            return arguments[++i];
        };
        if (auto name = value(QStringLiteral("--community-name")))
            options.community = name->toStdString();
        else if (auto file =
                     value(options.command == QLatin1String("export") ? QStringLiteral("--output")
                                                                      : QStringLiteral("--input")))
            options.file = file->toStdString();
        else if (argument == QLatin1String("--stop-on-error")
                 && options.command == QLatin1String("import"))
            options.stopOnError = true;
        else
            options.rest << argument;
        if (!error.empty())
            return std::nullopt;
    }
    return options;
}

double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval &t) {
        return double(t.tv_sec) + double(t.tv_usec) / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

int runExport(RelayEngine &engine, const TransferOptions &options)
{
    std::ofstream file;
    if (options.file) {
        file.open(*options.file, std::ios::binary | std::ios::trunc);
        if (!file)
            return fail("cannot write " + *options.file);
    }
    std::ostream &out = options.file ? file : std::cout;
    std::size_t count = 0;
    std::string error;
    const bool ok = engine.exportEvents(
        options.community,
        [&](const std::string &json) {
            out << json << '\n';
            ++count;
        },
        error);
    out.flush();
    if (!ok)
        return fail("export failed after " + std::to_string(count) + " events: " + error);
    if (!out)
        return fail("export failed: cannot write the output");
    std::fprintf(stderr, "buzz-mock-relay: exported %zu events\n", count);
    return 0;
}

int runImport(RelayEngine &engine, const TransferOptions &options)
{
    std::ifstream file;
    if (options.file) {
        file.open(*options.file, std::ios::binary);
        if (!file)
            return fail("cannot read " + *options.file);
    }
    std::istream &in = options.file ? file : std::cin;
    EventImport::Options importOptions;
    importOptions.community = options.community;
    importOptions.stopOnError = options.stopOnError;
    const double cpuBefore = cpuSeconds();
    const auto started = std::chrono::steady_clock::now();
    const EventImport::Report report = EventImport(engine, importOptions).run(in);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpu = cpuSeconds() - cpuBefore;
    for (const auto &refusal : report.refused)
        std::fprintf(stderr, "buzz-mock-relay: line %zu: %s\n", refusal.line,
                     refusal.message.c_str());
    const std::size_t handled = report.imported + report.duplicates;
    std::fprintf(stderr,
                 "buzz-mock-relay: imported %zu of %zu events (%zu already there, %zu refused%s) "
                 "in %.2f s: %.0f events/s, %.1f CPU us per event\n",
                 report.imported, report.lines, report.duplicates, report.refused.size(),
                 report.stopped ? ", stopped at the first bad line" : "", wall,
                 wall > 0 ? double(handled) / wall : 0.0,
                 handled > 0 ? cpu * 1e6 / double(handled) : 0.0);
    return report.refused.empty() ? 0 : 1;
}
} // namespace

bool TransferCommand::matches(const QStringList &arguments)
{
    const QString command = arguments.value(1);
    return command == QLatin1String("export") || command == QLatin1String("import");
}

QString TransferCommand::helpText()
{
    return QStringLiteral(
        "\nbuzz-mock-relay export [--data DIR | --database-url URL] [--community-name NAME]\n"
        "                       [--output FILE]\n"
        "buzz-mock-relay import [--data DIR | --database-url URL] [--community-name NAME]\n"
        "                       [--input FILE] [--stop-on-error]\n"
        "  JSON Lines, one signed event a line, of one community (default local), to stdout or\n"
        "  FILE / from stdin or FILE, while no relay serves the store. import verifies every\n"
        "  id and signature, replays the ingest rules and reports each refused line by number;\n"
        "  --stop-on-error stops at the first line that is not a valid signed event.\n");
}

int TransferCommand::run(const QStringList &arguments, const QProcessEnvironment &environment)
{
    std::string error;
    const auto options = parse(arguments, error);
    if (!options)
        return fail(error + " (see --help)");
    auto parsed = RelayConfig::fromArguments(options->rest, environment);
    if (!parsed)
        return fail(parsed.error() + " (see --help)");
    const RelayConfig &config = parsed->config;
    if (!config.dataDir && config.databaseUrl.empty())
        return fail(options->command.toStdString()
                    + " needs a store: --data DIR or --database-url URL (see --help)");

    RelayEngine::Options engineOptions;
    if (config.dataDir)
        engineOptions.dataDir = config.dataDir->toStdString();
    engineOptions.databaseUrl = config.databaseUrl;
    engineOptions.relaySecretKeyHex = config.relayKey.value_or(std::string());
    engineOptions.replicationDriver = false;
    RelayEngine engine(std::move(engineOptions));
    if (!engine.startupError().empty())
        return fail(engine.startupError());
    return options->command == QLatin1String("export") ? runExport(engine, *options)
                                                       : runImport(engine, *options);
}

} // namespace buzz::relay
