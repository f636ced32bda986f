// store_probe (not a test, not a bench: it prints no BENCH lines). One relay engine on an on-disk
// store, SQLite by default (--data DIR, else a temp dir) or PostgreSQL (--database-url URL), and
// two phases, each in a function of its own so callgrind can count one phase alone, whatever the
// load on the machine:
//
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*probeIngest*'
//       build/tests/bench/store_probe --events 2000
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*probeHeadReads*'
//       build/tests/bench/store_probe --reads 2000
//
// probeIngest: pre-signed kind-9 notes through RelayEngine::ingest, one at a time (the writer is
// idle, so each group commit runs on the calling thread and callgrind sees all of it);
// probeHeadReads: canvas head reads ({"kinds":[40100],"#h":[ch],"limit":1}) through
// RelayEngine::query, against a channel with 50 canvas revisions among the notes.
// Instructions per event = the phase's Ir / N (divide out startup by running two N).

#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace buzz;
using namespace buzz::relay;

namespace {
constexpr std::int64_t kStart = 1'790'000'000;
const std::string kChannel = "5e0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";

std::vector<nostr::Event> notes(const nostr::SecretKey &key, int count, std::int64_t from)
{
    std::vector<nostr::Event> events;
    events.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i)
        events.push_back(key.signedEvent(9, from + i % 600, {{"h", kChannel}},
                                         "probe note " + std::to_string(i)));
    return events;
}

__attribute__((noinline)) int probeIngest(RelayEngine &engine,
                                          const std::vector<nostr::Event> &events,
                                          const RequestContext &context)
{
    int accepted = 0;
    for (const auto &event : events)
        accepted += engine.ingest(event, context).accepted() ? 1 : 0;
    return accepted;
}

__attribute__((noinline)) int probeHeadReads(RelayEngine &engine, int reads,
                                             const std::vector<nostr::Filter> &filters,
                                             const RequestContext &context)
{
    int found = 0;
    for (int i = 0; i < reads; ++i)
        found += int(engine.query(filters, context, ReadPath::BridgeQuery).events.size());
    return found;
}

std::optional<std::string> option(const QStringList &arguments, const QString &name)
{
    const auto at = arguments.indexOf(name);
    if (at < 0 || at + 1 >= arguments.size())
        return std::nullopt;
    return arguments.at(at + 1).toStdString();
}
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    qputenv("QT_LOGGING_RULES", "buzz.*.info=false;buzz.*.debug=false");
    const QStringList arguments = app.arguments();
    const int events = std::stoi(option(arguments, "--events").value_or("0"));
    const int reads = std::stoi(option(arguments, "--reads").value_or("0"));

    QTemporaryDir temporary;
    RelayEngine::Options options;
    if (auto url = option(arguments, "--database-url"))
        options.databaseUrl = *url;
    else
        options.dataDir = option(arguments, "--data").value_or(temporary.path().toStdString());
    options.relaySecretKeyHex = std::string(63, '0') + "1";
    options.clock = [] {
        return kStart + 100;
    };
    RelayEngine engine(std::move(options));
    if (!engine.startupError().empty()) {
        std::fprintf(stderr, "store_probe: %s\n", engine.startupError().c_str());
        return 1;
    }

    const auto key = nostr::SecretKey::generate();
    const RequestContext context {"local", key.publicKeyHex(), Transport::Http};
    engine.ingest(key.signedEvent(9007, kStart, {{"h", kChannel}, {"name", "probe"}}), context);
    std::string head = "none";
    for (int i = 0; i < 50; ++i) {
        const auto revision =
            key.signedEvent(40100, kStart + i, {{"h", kChannel}, {"expected-revision", head}},
                            "rev " + std::to_string(i));
        if (engine.ingest(revision, context).accepted())
            head = revision.id;
    }
    // Background rows so the reads search a populated store (not counted: not probeIngest).
    for (const auto &event : notes(key, 2000, kStart - 700))
        engine.ingest(event, context);

    const auto batch = notes(key, events, kStart - 600);
    QElapsedTimer timer;
    timer.start();
    const int accepted = probeIngest(engine, batch, context);
    const double ingestMs = double(timer.nsecsElapsed()) / 1e6;
    const auto filters = nostr::Filter::listFromJson("[{\"kinds\":[40100],\"#h\":[\"" + kChannel
                                                     + "\"],\"limit\":1}]");
    timer.restart();
    const int found = reads > 0 ? probeHeadReads(engine, reads, filters.value(), context) : 0;
    const double readMs = double(timer.nsecsElapsed()) / 1e6;
    std::printf("store_probe: %d/%d notes ingested in %.1f ms; %d head reads found %d rows in %.1f "
                "ms\n",
                accepted, events, ingestMs, reads, found, readMs);
    return accepted == events && found == reads ? 0 : 1;
}
