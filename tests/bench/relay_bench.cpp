// relay_bench (not a test): prints BENCH lines (tests/bench/README.md) and a SQLite / PostgreSQL
// table.
//  1. single-core bare verify rate (Event::verify on pre-signed events), the anchor;
//  2. ingest events/s over WebSocket, 4 connections, against a buzz-mock-relay process (every
//     event signature-verified by the relay), and its ratio to (1), with the relay's CPU per event
//     by thread, the events per group commit (and on disk the bytes written to storage per
//     event): on disk (`--data` in a directory on the machine's disk, synchronous=FULL: the
//     figure against the target, as the app and every QA relay run), in memory (no `--data`) and
//     on PostgreSQL (`--database-url` + `--read-database-url`), with the lean load client; in
//     memory once more with the tests' QWebSocket client; the same notes ingested in process on
//     one thread (the store's share, without network or group commit);
//  3. a store at 10k and 200k events (SQLite on disk filled through the engine; PostgreSQL by
//     COPY): database bytes per event against the events' canonical JSON length (SQLite), and
//     /query latency p50/p99 (NIP-98 signed requests) for a canvas head read
//     ({"kinds":[40100],"#h":[ch],"limit":1}, routed, and with "consistency":"strong") and a
//     100-row history page;
//  4. 500-pair exact hydration at 1M events (HydrationBench: loaded in bulk).
// PostgreSQL: a throwaway primary + standby of its own (tests/support/pg-cluster.sh), or
// --database-url URL [--read-database-url URL]; without PostgreSQL 15 it says so and prints the
// SQLite column only (--sqlite-only: the same on purpose).

#include "BenchPostgres.h"
#include "BenchTable.h"
#include "HydrationBench.h"
#include "RelayBenchIngest.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "relay/store/postgres/PgConnection.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::bench;
using namespace buzz::relay::test;

namespace {

struct Percentiles
{
    double p50 = 0, p99 = 0;
};

// `samples` requests; `replicaShare` receives the share the replica served (X-Buzz-Read-Route).
Percentiles measure(HttpTestClient &http, const std::function<std::string()> &body, int samples,
                    double *replicaShare = nullptr)
{
    std::vector<double> ms;
    ms.reserve(std::size_t(samples));
    int onReplica = 0;
    for (int i = 0; i < samples; ++i) {
        const std::string filters = body();
        QElapsedTimer timer;
        timer.start();
        const auto reply = http.query(filters);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (reply.status != 200)
            std::fprintf(stderr, "relay_bench: query answered %d\n", reply.status);
        onReplica += reply.header("X-Buzz-Read-Route").startsWith("replica") ? 1 : 0;
    }
    if (replicaShare)
        *replicaShare = double(onReplica) / samples;
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)]};
}

// Fills the store through the engine (every event verified and committed like a client's) until it
// holds `target` rows: channel messages across 20 channels, and a canvas revision every 50 rows.
// Many writers at once, as many clients would be: on disk each group commit waits for its fsync.
// Returns the canonical JSON bytes of the events it stored.
std::uint64_t fillStore(RelayTestFixture &relay, const TestIdentity &owner,
                        const std::vector<std::string> &channels, int from, int target)
{
    const std::int64_t now = relay.now();
    std::vector<int> indexes(std::size_t(target - from));
    std::iota(indexes.begin(), indexes.end(), from);
    std::atomic<std::uint64_t> jsonBytes {0};
    QThreadPool writers;
    writers.setMaxThreadCount(64);
    QtConcurrent::blockingMap(&writers, indexes, [&](int &i) {
        const std::string &channel = channels[std::size_t(i) % channels.size()];
        const std::int64_t createdAt = now - 800 + (i % 800);
        const bool canvas = i % 50 == 0;
        const auto event = owner.sign(canvas ? 40100 : 9, createdAt, {{"h", channel}},
                                      canvas ? "# canvas revision " + std::to_string(i)
                                             : "message " + std::to_string(i));
        const auto result = relay.engine().ingest(
            event,
            RequestContext {RelayServer::kDefaultCommunity, owner.pubkey(), Transport::Http});
        if (result.accepted())
            jsonBytes.fetch_add(event.toJson().size(), std::memory_order_relaxed);
    });
    return jsonBytes.load();
}

struct StoreSize
{
    double bytes = 0; // page_count × page_size: the database with every WAL frame applied
    double events = 0; // rows in events
};

// Read from a connection of its own, so it is what a reopened store would hold.
StoreSize storeSize(const QString &dataDir)
{
    StoreSize size;
    sqlite3 *db = nullptr;
    const QByteArray path = (dataDir + QStringLiteral("/relay.sqlite3")).toLocal8Bit();
    if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        const auto single = [db](const char *sql) {
            sqlite3_stmt *statement = nullptr;
            double value = 0;
            if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK
                && sqlite3_step(statement) == SQLITE_ROW)
                value = sqlite3_column_double(statement, 0);
            sqlite3_finalize(statement);
            return value;
        };
        size.bytes = single("PRAGMA page_count") * single("PRAGMA page_size");
        size.events = single("SELECT count(*) FROM events");
    }
    sqlite3_close_v2(db);
    const auto fileSize = [&](const char *suffix) {
        return double(
            QFileInfo(dataDir + QStringLiteral("/relay.sqlite3") + QLatin1String(suffix)).size());
    };
    std::fprintf(stderr, "relay_bench: %.0f events, database %.1f MB (file %.1f MB, WAL %.1f MB)\n",
                 size.events, size.bytes / 1e6, fileSize("") / 1e6, fileSize("-wal") / 1e6);
    return size;
}

// The store's share: the same notes ingested in process on one thread (verify + checks + one
// transaction each, no network, no group commit), to set against the WebSocket figure.
double engineIngestRate(const TestIdentity &writer, int count)
{
    RelayTestFixture::Options options;
    options.systemClock = true;
    RelayTestFixture relay(options);
    const auto events = signNotes(writer, count, relay.now(), "engine");
    const RequestContext context {RelayServer::kDefaultCommunity, writer.pubkey(), Transport::Http};
    QElapsedTimer timer;
    timer.start();
    int accepted = 0;
    for (const auto &event : events)
        accepted += relay.engine().ingest(event, context).accepted() ? 1 : 0;
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (accepted != count)
        std::fprintf(stderr, "relay_bench: %d engine ingests refused\n", count - accepted);
    return double(count) / seconds;
}

struct HeadFigures
{
    Percentiles routed; // the display read: a replica serves it when one is fresh enough
    Percentiles strong; // "consistency":"strong": always the writer
    double replicaShare = 0; // of the routed reads
};

// An engine on `options`' store filled to 10k and then 200k events by `fill`, at each size the
// head read and a 100-row history page over signed HTTP /query; prints BENCH lines named
// `prefix`…; returns the 200k head figures. On SQLite also the store's bytes per event.
// How a store phase fills its store from `from` to `target` rows (returns their JSON bytes).
using Fill = std::function<std::uint64_t(RelayTestFixture &, const TestIdentity &,
                                         const std::vector<std::string> &, int, int)>;

// PostgreSQL: fillStore's rows (channels, kinds, times, a canvas revision every 50) by COPY, with
// random ids and signatures (a read verifies nothing), not through the engine: through the engine
// PostgreSQL takes ≈ 1 ms of writer round trips per event, minutes for 200k.
Fill copyFill(const std::string &writerUrl)
{
    return [writerUrl](RelayTestFixture &relay, const TestIdentity &owner,
                       const std::vector<std::string> &channels, int from, int target) {
        std::string error;
        auto connection = store::PgConnection::open(writerUrl, error);
        std::mt19937_64 random(std::uint64_t(from) + 1);
        const std::int64_t now = relay.now();
        int i = from;
        const auto next = [&] {
            StoredEvent stored;
            stored.community = RelayServer::kDefaultCommunity;
            stored.channel = channels[std::size_t(i) % channels.size()];
            nostr::Event &event = stored.event;
            const bool canvas = i % 50 == 0;
            event.id = HydrationBench::randomHex(random, 64);
            event.pubkey = owner.pubkey();
            event.createdAt = now - 800 + (i % 800);
            event.kind = canvas ? 40100 : 9;
            event.tags = {{"h", *stored.channel}};
            event.content =
                canvas ? "# canvas revision " + std::to_string(i) : "message " + std::to_string(i);
            event.sig = HydrationBench::randomHex(random, 128);
            ++i;
            return stored;
        };
        if (!connection || !HydrationBench::copyEvents(*connection, target - from, next, nullptr))
            std::fprintf(stderr, "relay_bench: COPY fill failed %s\n", error.c_str());
        return std::uint64_t(0);
    };
}

HeadFigures storePhase(RelayTestFixture::Options options, const std::string &prefix,
                       const Fill &fill)
{
    options.systemClock = true;
    RelayTestFixture relay(options);
    TestIdentity owner;
    std::vector<std::string> channels;
    for (int i = 0; i < 20; ++i)
        channels.push_back(relay.createChannel(owner, "bench-" + std::to_string(i)));
    const std::string &channel = channels.front();
    HttpTestClient http(relay, &owner.key);
    const std::int64_t now = relay.now();
    const auto headRead = [&] {
        return R"([{"kinds":[40100],"#h":[")" + channel + R"("],"limit":1}])";
    };
    const auto strongHeadRead = [&] {
        return R"([{"kinds":[40100],"#h":[")" + channel
            + R"("],"limit":1,"consistency":"strong"}])";
    };
    const auto historyPage = [&] {
        const std::int64_t until =
            now - 800 + std::int64_t(QRandomGenerator::global()->bounded(700)) + 100;
        return R"([{"kinds":[9],"#h":[")" + channel + R"("],"limit":100,"until":)"
            + std::to_string(until) + "}]";
    };

    HeadFigures figures;
    int stored = 0;
    std::uint64_t jsonBytes = 0;
    for (const int target : {10000, 200000}) {
        const auto start = std::chrono::steady_clock::now();
        jsonBytes += fill(relay, owner, channels, stored, target);
        std::fprintf(
            stderr, "relay_bench: %s store filled to %d events in %.1f s\n", prefix.c_str(), target,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        stored = target;
        const std::string size = std::to_string(target / 1000) + "k";
        if (options.dataDir) {
            const StoreSize store = storeSize(QString::fromStdString(*options.dataDir));
            const double perEvent = store.events > 0 ? store.bytes / store.events : 0;
            const double jsonPerEvent = double(jsonBytes) / double(target);
            printBench((prefix + "_store_bytes_per_event_" + size).c_str(), perEvent, "B",
                       target == 200000 ? "<= 2x json" : "-", "canonical_json_bytes", jsonPerEvent,
                       perEvent / jsonPerEvent);
        }
        double replicaShare = 0;
        const auto head = measure(http, headRead, 400, &replicaShare);
        const auto page = measure(http, historyPage, 200);
        const std::string headName = prefix + "_query_head_" + size;
        const std::string pageName = prefix + "_query_page100_" + size;
        const char *headTarget = target == 200000 ? "<= 5 ms" : "-";
        printBench((headName + "_p50").c_str(), head.p50, "ms", "-", nullptr, 0, 0);
        printBench((headName + "_p99").c_str(), head.p99, "ms", headTarget, nullptr, 0, 0);
        printBench((pageName + "_p50").c_str(), page.p50, "ms", "-", nullptr, 0, 0);
        printBench((pageName + "_p99").c_str(), page.p99, "ms", "-", nullptr, 0, 0);
        if (target == 200000) {
            figures.routed = head;
            figures.replicaShare = replicaShare;
            figures.strong = measure(http, strongHeadRead, 400);
            printBench((headName + "_strong_p50").c_str(), figures.strong.p50, "ms", "-", nullptr,
                       0, 0);
            printBench((headName + "_strong_p99").c_str(), figures.strong.p99, "ms", "-", nullptr,
                       0, 0);
            printBench((headName + "_replica_share").c_str(), replicaShare * 100, "%", "-", nullptr,
                       0, 0);
        }
    }
    return figures;
}

void printHydration(const std::string &prefix, const HydrationFigures &figures)
{
    printBench((prefix + "_load_s").c_str(), figures.loadSeconds, "s", "-", nullptr, 0, 0);
    printBench((prefix + "_p50").c_str(), figures.p50Ms, "ms", "<= 10 ms", nullptr, 0, 0);
    printBench((prefix + "_p99").c_str(), figures.p99Ms, "ms", "-", nullptr, 0, 0);
    printBench((prefix + "_cpu_p50").c_str(), figures.cpuP50Ms, "ms", "-", nullptr, 0, 0);
    if (figures.standbyP50Ms) {
        printBench((prefix + "_standby_p50").c_str(), *figures.standbyP50Ms, "ms", "-", nullptr, 0,
                   0);
        printBench((prefix + "_standby_p99").c_str(), *figures.standbyP99Ms, "ms", "-", nullptr, 0,
                   0);
    }
    if (figures.found != figures.asked)
        std::fprintf(stderr, "relay_bench: hydration found %zu of %zu pairs\n", figures.found,
                     figures.asked);
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    qputenv("QT_LOGGING_RULES", "buzz.*.info=false;buzz.*.debug=false");
    const QStringList arguments = app.arguments();
    // --ingest-only: just the anchor and the WebSocket ingest figures (for profiling the relay);
    // --sqlite-only: no PostgreSQL column; --database-url URL [--read-database-url URL]: that
    // PostgreSQL instead of a throwaway pair (pg-cluster.sh) of the bench's own.
    const bool ingestOnly = arguments.contains(QStringLiteral("--ingest-only"));
    const bool sqliteOnly = arguments.contains(QStringLiteral("--sqlite-only"));
    // --postgres-ingest-only: the anchor and PostgreSQL's WebSocket ingest alone.
    const bool postgresIngestOnly = arguments.contains(QStringLiteral("--postgres-ingest-only"));

    TestIdentity anchorIdentity;
    const auto anchorEvents =
        signNotes(anchorIdentity, 4000, QDateTime::currentSecsSinceEpoch(), "anchor");
    const double verifyRate = bareVerifyRate(anchorEvents);
    printBench("relay_verify_single_core", verifyRate, "events/s", "-", nullptr, 0, 0);
    const ParseVerify anchor = parseVerifyRate(anchorEvents);
    const double parseVerify = anchor.rate;
    printBench("relay_parse_verify_single_core", parseVerify, "events/s", "-", nullptr, 0, 0);
    printBench("relay_parse_verify_single_core_cpu", anchor.cpuUsPerEvent, "us/event", "-", nullptr,
               0, 0);

    const std::vector<TestIdentity> writers(4);
    IngestCost diskCost;
    double onDisk = 0;
    std::unique_ptr<QTemporaryDir> ingestDir;
    if (!postgresIngestOnly) {
        const double engine = engineIngestRate(writers.front(), 5000);
        printBench("relay_engine_ingest_1thread", engine, "events/s", "-", "verify_single_core",
                   verifyRate, engine / verifyRate);
        ingestDir = diskDirectory();
        if (!ingestDir)
            return 1;
        onDisk = wsIngestRate(writers, 5000, "relay_ws_ingest_disk",
                              {QStringLiteral("--data"), ingestDir->path()}, &diskCost);
        printBench("relay_ws_ingest_4conn_disk", onDisk, "events/s", ">= 0.8x verify",
                   "verify_single_core", verifyRate, onDisk / verifyRate);
        // Issue 27 item 9: the relay process's CPU (utime + stime, every thread) per event on disk
        // against one core's parse + verify per event of the same run.
        printBench("relay_ws_ingest_disk_cpu_vs_parse_verify", diskCost.relayCpuUsPerEvent,
                   "us/event", "<= 1.2x", "parse_verify_single_core_cpu_us", anchor.cpuUsPerEvent,
                   diskCost.relayCpuUsPerEvent / anchor.cpuUsPerEvent);
        const double inMemory = wsIngestRate(writers, 5000, "relay_ws_ingest_memory", {});
        printBench("relay_ws_ingest_4conn_memory", inMemory, "events/s", "-", "verify_single_core",
                   verifyRate, inMemory / verifyRate);
    }

    std::unique_ptr<BenchPostgres> postgres;
    if (!sqliteOnly)
        postgres = std::make_unique<BenchPostgres>(arguments);
    const bool pg = postgres && postgres->available();
    if (postgres && !pg)
        std::printf("relay_bench: PostgreSQL column skipped: %s\n", postgres->absent().c_str());
    if (pg)
        std::fprintf(stderr, "relay_bench: PostgreSQL: %s\n", postgres->origin().c_str());
    IngestCost pgCost;
    double pgIngest = 0;
    auto pgStart = std::chrono::steady_clock::now();
    double pgSeconds = 0;
    if (pg) {
        if (auto urls = postgres->freshSchema("ingest")) {
            QStringList relayArguments {QStringLiteral("--database-url"),
                                        QString::fromStdString(urls->writer)};
            if (!urls->standby.empty())
                relayArguments << QStringLiteral("--read-database-url")
                               << QString::fromStdString(urls->standby);
            pgIngest = wsIngestRate(writers, 5000, "relay_pg_ws_ingest", relayArguments, &pgCost);
            printBench("relay_pg_ws_ingest_4conn", pgIngest, "events/s", "-", "verify_single_core",
                       verifyRate, pgIngest / verifyRate);
            // Issue 27 item 7: against one core's parse + verify of the same run.
            printBench("relay_pg_ws_ingest_4conn_vs_parse_verify", pgIngest, "events/s", ">= 0.5x",
                       "parse_verify_single_core", parseVerify, pgIngest / parseVerify);
        }
        pgSeconds += secondsSince(pgStart);
    }
    if (ingestOnly || postgresIngestOnly)
        return 0;
    const double ingestQt = wsIngestRateQtClient(writers, 5000);
    printBench("relay_ws_ingest_4conn_qt_client", ingestQt, "events/s", "-", "verify_single_core",
               verifyRate, ingestQt / verifyRate);

    const auto storeDir = diskDirectory();
    if (!storeDir)
        return 1;
    RelayTestFixture::Options sqliteOptions;
    sqliteOptions.dataDir = storeDir->path().toStdString();
    const auto sqliteStart = std::chrono::steady_clock::now();
    const HeadFigures sqliteHead = storePhase(sqliteOptions, "relay", fillStore);
    const auto sqliteHydration = HydrationBench::sqlite(1'000'000, storeDir->path());
    const double sqliteSeconds = secondsSince(sqliteStart);
    if (sqliteHydration)
        printHydration("relay_hydrate_500_pairs_1m", *sqliteHydration);

    HeadFigures pgHead;
    std::optional<HydrationFigures> pgHydration;
    if (pg) {
        pgStart = std::chrono::steady_clock::now();
        // One store: 200k rows for the head reads, then 800k more for hydration at 1M.
        if (auto urls = postgres->freshSchema("store")) {
            RelayTestFixture::Options pgOptions;
            pgOptions.databaseUrl = urls->writer;
            pgOptions.readDatabaseUrl = urls->standby;
            pgOptions.readBudgetMs = 1000;
            pgHead = storePhase(pgOptions, "relay_pg", copyFill(urls->writer));
            pgHydration = HydrationBench::postgres(800'000, *urls, *postgres);
            if (pgHydration)
                printHydration("relay_pg_hydrate_500_pairs_1m", *pgHydration);
        }
        pgSeconds += secondsSince(pgStart);
        printBench("relay_pg_bench_time", pgSeconds, "s", "-", nullptr, 0, 0);
    }

    BenchTable table(pg);
    table.row("verify, single core (events/s)", verifyRate,
              pg ? std::optional(verifyRate) : std::nullopt);
    table.row("WS ingest, 4 connections (events/s)", onDisk, pgIngest);
    table.row("  ratio to single-core verify", onDisk / verifyRate, pgIngest / verifyRate, 3);
    table.row("  ratio to single-core parse + verify", onDisk / parseVerify, pgIngest / parseVerify,
              3);
    table.row("  relay CPU per event (µs, all threads)", diskCost.relayCpuUsPerEvent,
              pgCost.relayCpuUsPerEvent, 1);
    table.row("  relay CPU per event / one core's parse + verify CPU per event",
              diskCost.relayCpuUsPerEvent / anchor.cpuUsPerEvent,
              pgCost.relayCpuUsPerEvent / anchor.cpuUsPerEvent, 2);
    table.row("  events per group commit", diskCost.eventsPerCommit, pgCost.eventsPerCommit, 1);
    table.row("head read at 200k, p50 (ms)", sqliteHead.routed.p50, pgHead.routed.p50);
    table.row("head read at 200k, p99 (ms)", sqliteHead.routed.p99, pgHead.routed.p99);
    table.row("  served by the replica (%)", std::nullopt, pgHead.replicaShare * 100, 0);
    table.row("strong head read at 200k, p50 (ms, writer)", sqliteHead.strong.p50,
              pgHead.strong.p50);
    table.row("strong head read at 200k, p99 (ms, writer)", sqliteHead.strong.p99,
              pgHead.strong.p99);
    const auto hydration = [](const std::optional<HydrationFigures> &figures, auto field) {
        return figures ? std::optional<double>(field(*figures)) : std::nullopt;
    };
    table.row("500-pair hydration at 1M, p50 (ms, writer)",
              hydration(sqliteHydration, [](auto &f) { return f.p50Ms; }),
              hydration(pgHydration, [](auto &f) { return f.p50Ms; }));
    table.row("500-pair hydration at 1M, p99 (ms, writer)",
              hydration(sqliteHydration, [](auto &f) { return f.p99Ms; }),
              hydration(pgHydration, [](auto &f) { return f.p99Ms; }));
    table.row("500-pair hydration at 1M, p50 (ms, standby)", std::nullopt,
              pgHydration ? pgHydration->standbyP50Ms : std::nullopt);
    table.row("bulk load for hydration (s; PostgreSQL: the 800k after the head reads' 200k)",
              hydration(sqliteHydration, [](auto &f) { return f.loadSeconds; }),
              hydration(pgHydration, [](auto &f) { return f.loadSeconds; }), 1);
    table.row("time of head reads + hydration (s; PostgreSQL: + its ingest)", sqliteSeconds,
              pg ? std::optional(pgSeconds) : std::nullopt, 0);
    table.print(pg ? "SQLite: WS ingest on disk (--data, synchronous=FULL), head reads on disk "
                     "(no replica); PostgreSQL: "
                        + postgres->origin()
                        + ", the relay on --database-url with its standby as "
                          "--read-database-url (read budget 1000 ms). Bulk loads, not WebSocket: "
                          "PostgreSQL's 200k store by COPY (SQLite's through the engine); the 1M "
                          "hydration stores by SqliteRowWriter (SQLite) and COPY (PostgreSQL)."
                   : std::string("PostgreSQL column skipped: ")
                        + (postgres ? postgres->absent() : std::string("--sqlite-only")));
    return 0;
}
