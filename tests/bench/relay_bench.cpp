// relay_bench (not a test): prints BENCH lines (tests/bench/README.md).
//  1. single-core bare verify rate (Event::verify on pre-signed events), the anchor;
//  2. ingest events/s over WebSocket, 4 connections, against a buzz-mock-relay process (every
//     event signature-verified by the relay), and its ratio to (1), with the relay's CPU per event
//     by thread, the events per group commit (and on disk the bytes written to storage per
//     event): on disk (`--data` in a directory on the machine's disk, synchronous=FULL: the
//     figure against the target, as the app and every QA relay run) and in memory (no `--data`),
//     with the lean load client; in memory once more with the tests' QWebSocket client; the same
//     notes ingested in process on one thread (the store's share, without network or group commit);
//  3. an on-disk store filled through the engine to 10k and 200k events: database bytes per event
//     against the events' canonical JSON length, and /query latency p50/p99 (NIP-98 signed
//     requests) for a canvas head read ({"kinds":[40100],"#h":[ch],"limit":1}) and a 100-row
//     history page.

#include "RelayProcess.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"
#include "WsLoadClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent>

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <numeric>
#include <thread>

#include <sys/vfs.h>
#include <unistd.h>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

void printBench(const char *name, double value, const char *unit, const char *target,
                const char *anchor, double anchorValue, double ratio)
{
    if (anchor)
        std::printf("BENCH %s | %.2f %s | target %s | anchor %s %.0f | ratio %.3f\n", name, value,
                    unit, target, anchor, anchorValue, ratio);
    else
        std::printf("BENCH %s | %.2f %s | target %s | anchor - | ratio -\n", name, value, unit,
                    target);
    std::fflush(stdout);
}

std::vector<nostr::Event> signNotes(const TestIdentity &who, int count, std::int64_t now,
                                    const std::string &tag)
{
    std::vector<nostr::Event> events;
    events.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i)
        events.push_back(who.sign(1, now, {{"t", tag}}, "bench note " + std::to_string(i)));
    return events;
}

double bareVerifyRate(const std::vector<nostr::Event> &events)
{
    QElapsedTimer timer;
    timer.start();
    std::size_t valid = 0;
    for (const auto &event : events)
        valid += event.verify() ? 1 : 0;
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (valid != events.size())
        std::fprintf(stderr, "relay_bench: %zu events failed verification\n",
                     events.size() - valid);
    return double(events.size()) / seconds;
}

// One counter from the relay's /metrics (0 when absent).
double metricValue(quint16 port, const QByteArray &name)
{
    QNetworkAccessManager network;
    QNetworkReply *reply =
        network.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port))));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray text = reply->readAll();
    reply->deleteLater();
    for (const QByteArray &line : text.split('\n')) {
        if (line.startsWith(QByteArray(name + ' ')))
            return line.mid(name.size() + 1).toDouble();
    }
    return 0;
}

// CPU seconds per thread name ("buzz-writer", "Thread (pooled)", the main thread's name) of a
// process, from /proc: where the relay's time goes, independent of what else the machine runs.
std::map<std::string, double> threadCpuSeconds(qint64 pid)
{
    std::map<std::string, double> seconds;
    const double tick = double(sysconf(_SC_CLK_TCK));
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = file.readAll();
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        if (fields.size() < 13)
            continue; // fields[11], [12]: utime, stime (fields 14 and 15 of proc(5))
        seconds[stat.mid(open + 1, close - open - 1).toStdString()] +=
            (fields[11].toDouble() + fields[12].toDouble()) / tick;
    }
    return seconds;
}

void printThreadCpu(const std::string &prefix, const std::map<std::string, double> &before,
                    const std::map<std::string, double> &after, int events)
{
    double total = 0;
    for (const auto &[name, value] : after) {
        const auto it = before.find(name);
        const double used = value - (it == before.end() ? 0 : it->second);
        total += used;
        std::string label = name == "Thread (pooled)" ? "pool" : name;
        std::replace_if(
            label.begin(), label.end(), [](char c) { return !std::isalnum(c); }, '_');
        printBench((prefix + "_cpu_" + label).c_str(), used / events * 1e6, "us/event", "-",
                   nullptr, 0, 0);
    }
    printBench((prefix + "_cpu_total").c_str(), total / events * 1e6, "us/event", "-", nullptr, 0,
               0);
}

// Bytes the process has had written to storage (write_bytes of /proc/PID/io): the WAL, the
// checkpoints into the database file. On the virtual disks these machines have, fsync time grows
// with the bytes a group commit writes, so this is the on-disk path's cost the CPU figures miss.
double processWriteBytes(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/io").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("write_bytes: "))
            return line.mid(13).toDouble();
    }
    return 0;
}

quint16 startBenchRelay(QProcess &relay, const std::optional<QString> &dataDir = std::nullopt)
{
    // BUZZ_BENCH_RELAY_WRAPPER (e.g. "perf record -g -o relay.perf --") runs the relay under a
    // tool.
    QStringList command =
        QString::fromLocal8Bit(qgetenv("BUZZ_BENCH_RELAY_WRAPPER")).split(u' ', Qt::SkipEmptyParts);
    command << QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay");
    // The store is chosen here, never inherited from the caller's environment.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("BUZZ_RELAY_DATA_DIR"));
    environment.remove(QStringLiteral("BUZZ_DATA_DIR")); // retired: the relay refuses to start
    const QStringList arguments =
        dataDir ? QStringList {QStringLiteral("--data"), *dataDir} : QStringList {};
    return startRelayProcess(relay, command, arguments, environment);
}

void printGroupSize(quint16 port, const std::string &name)
{
    const double groups = metricValue(port, "buzz_commit_groups_total");
    const double members = metricValue(port, "buzz_commit_group_members_total");
    printBench(name.c_str(), groups > 0 ? members / groups : 0, "events", "-", nullptr, 0, 0);
}

// A directory for an on-disk store: under TMPDIR unless BUZZ_BENCH_DATA_DIR names a parent. Says
// where it is and warns when that is a tmpfs (memory, not the disk the figure is about).
std::unique_ptr<QTemporaryDir> diskDirectory()
{
    const QString parent = qEnvironmentVariableIsSet("BUZZ_BENCH_DATA_DIR")
        ? qEnvironmentVariable("BUZZ_BENCH_DATA_DIR")
        : QDir::tempPath();
    auto dir = std::make_unique<QTemporaryDir>(parent + QStringLiteral("/relay-bench-XXXXXX"));
    if (!dir->isValid())
        return nullptr;
    struct statfs info
    {
    };
    constexpr long kTmpfsMagic = 0x01021994;
    const bool memory = statfs(dir->path().toLocal8Bit().constData(), &info) == 0
        && long(info.f_type) == kTmpfsMagic;
    std::fprintf(stderr, "relay_bench: on-disk store under %s%s\n", qPrintable(dir->path()),
                 memory ? " (WARNING: a tmpfs, set BUZZ_BENCH_DATA_DIR to a disk)" : "");
    return dir;
}

// Keep a window of events in flight per connection, like a busy client.
constexpr int kWindow = 64;

// The measured figure: the lean client (WsLoadClient, one blocking thread per connection) frames
// every event before the clock starts, so as much of the two cores as possible goes to the relay.
// `dataDir`: the relay's --data (on disk, synchronous=FULL); nullopt: its in-memory store.
double wsIngestRate(const std::vector<TestIdentity> &identities, int perConnection,
                    const std::string &prefix, const std::optional<QString> &dataDir)
{
    QProcess relay;
    const quint16 port = startBenchRelay(relay, dataDir);
    if (port == 0)
        return 0;
    const std::string url = "ws://127.0.0.1:" + std::to_string(port);
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    std::vector<std::unique_ptr<bench::WsLoadClient>> clients;
    for (std::size_t c = 0; c < identities.size(); ++c) {
        clients.push_back(std::make_unique<bench::WsLoadClient>(port));
        if (!clients.back()->connectAndAuthenticate(identities[c].key, url, now))
            return 0;
        clients.back()->prepare(
            signNotes(identities[c], perConnection, now, "ws" + std::to_string(c)));
    }
    const auto cpuBefore = threadCpuSeconds(relay.processId());
    const double writtenBefore = processWriteBytes(relay.processId());
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> threads;
    for (auto &client : clients)
        threads.emplace_back([&client] { client->run(kWindow, 300000); });
    for (auto &thread : threads)
        thread.join();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    int acknowledged = 0, rejected = 0;
    bool failed = false;
    for (const auto &client : clients) {
        acknowledged += client->acknowledged();
        rejected += client->rejected();
        failed = failed || client->failed();
    }
    if (rejected || failed)
        std::fprintf(stderr, "relay_bench: %d events rejected%s\n", rejected,
                     failed ? ", a connection failed" : "");
    printThreadCpu(prefix, cpuBefore, threadCpuSeconds(relay.processId()), acknowledged);
    printGroupSize(port, prefix + "_events_per_commit");
    if (dataDir)
        printBench((prefix + "_written_bytes_per_event").c_str(),
                   (processWriteBytes(relay.processId()) - writtenBefore)
                       / std::max(acknowledged, 1),
                   "B", "-", nullptr, 0, 0);
    clients.clear();
    relay.terminate();
    relay.waitForFinished(10000);
    return double(acknowledged) / seconds;
}

// For comparison: the tests' QWebSocket client, which serialises each event and parses each OK
// while the clock runs, on the same two cores as the relay.
double wsIngestRateQtClient(const std::vector<TestIdentity> &identities, int perConnection)
{
    QProcess relay;
    const quint16 port = startBenchRelay(relay);
    if (port == 0)
        return 0;
    const std::string url = "ws://127.0.0.1:" + std::to_string(port);
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();

    std::vector<std::vector<nostr::Event>> batches;
    std::vector<std::unique_ptr<WsTestClient>> clients;
    for (std::size_t c = 0; c < identities.size(); ++c) {
        batches.push_back(signNotes(identities[c], perConnection, now, "qt" + std::to_string(c)));
        clients.push_back(std::make_unique<WsTestClient>(QUrl(QString::fromStdString(url))));
        if (!clients.back()->connectAndAuthenticate(identities[c].key, url, now))
            return 0;
    }
    std::vector<int> sent(clients.size(), 0);
    int totalAcked = 0, rejected = 0;
    const int total = perConnection * int(clients.size());
    QElapsedTimer timer;
    timer.start();
    for (std::size_t c = 0; c < clients.size(); ++c) {
        QObject::connect(clients[c].get(), &WsTestClient::frameReceived, clients[c].get(), [&, c] {
            while (true) {
                const auto ok = clients[c]->waitForType("OK", 0);
                if (ok.is_null())
                    break;
                ++totalAcked;
                if (ok[2] != true)
                    ++rejected;
                if (sent[c] < perConnection)
                    clients[c]->sendEvent(batches[c][std::size_t(sent[c]++)]);
            }
        });
        for (; sent[c] < std::min(kWindow, perConnection); ++sent[c])
            clients[c]->sendEvent(batches[c][std::size_t(sent[c])]);
    }
    while (totalAcked < total && timer.elapsed() < 300000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (rejected)
        std::fprintf(stderr, "relay_bench: %d events rejected\n", rejected);
    clients.clear();
    relay.terminate();
    relay.waitForFinished(10000);
    return double(totalAcked) / seconds;
}

struct Percentiles
{
    double p50 = 0, p99 = 0;
};

Percentiles measure(HttpTestClient &http, const std::function<std::string()> &body, int samples)
{
    std::vector<double> ms;
    ms.reserve(std::size_t(samples));
    for (int i = 0; i < samples; ++i) {
        const std::string filters = body();
        QElapsedTimer timer;
        timer.start();
        const auto reply = http.query(filters);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (reply.status != 200)
            std::fprintf(stderr, "relay_bench: query answered %d\n", reply.status);
    }
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

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    qputenv("QT_LOGGING_RULES", "buzz.*.info=false;buzz.*.debug=false");

    TestIdentity anchorIdentity;
    const auto anchorEvents =
        signNotes(anchorIdentity, 4000, QDateTime::currentSecsSinceEpoch(), "anchor");
    const double verifyRate = bareVerifyRate(anchorEvents);
    printBench("relay_verify_single_core", verifyRate, "events/s", "-", nullptr, 0, 0);

    // --ingest-only: just the anchor and the WebSocket ingest figures (for profiling the relay).
    const bool ingestOnly = app.arguments().contains(QStringLiteral("--ingest-only"));
    const std::vector<TestIdentity> writers(4);
    const double engine = engineIngestRate(writers.front(), 5000);
    printBench("relay_engine_ingest_1thread", engine, "events/s", "-", "verify_single_core",
               verifyRate, engine / verifyRate);
    const auto ingestDir = diskDirectory();
    if (!ingestDir)
        return 1;
    const double onDisk = wsIngestRate(writers, 5000, "relay_ws_ingest_disk", ingestDir->path());
    printBench("relay_ws_ingest_4conn_disk", onDisk, "events/s", ">= 0.8x verify",
               "verify_single_core", verifyRate, onDisk / verifyRate);
    const double inMemory = wsIngestRate(writers, 5000, "relay_ws_ingest_memory", std::nullopt);
    printBench("relay_ws_ingest_4conn_memory", inMemory, "events/s", "-", "verify_single_core",
               verifyRate, inMemory / verifyRate);
    if (ingestOnly)
        return 0;
    const double ingestQt = wsIngestRateQtClient(writers, 5000);
    printBench("relay_ws_ingest_4conn_qt_client", ingestQt, "events/s", "-", "verify_single_core",
               verifyRate, ingestQt / verifyRate);

    const auto storeDir = diskDirectory();
    if (!storeDir)
        return 1;
    RelayTestFixture::Options options;
    options.systemClock = true;
    options.dataDir = storeDir->path().toStdString();
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
    const auto historyPage = [&] {
        const std::int64_t until =
            now - 800 + std::int64_t(QRandomGenerator::global()->bounded(700)) + 100;
        return R"([{"kinds":[9],"#h":[")" + channel + R"("],"limit":100,"until":)"
            + std::to_string(until) + "}]";
    };

    int stored = 0;
    std::uint64_t jsonBytes = 0;
    for (const int target : {10000, 200000}) {
        jsonBytes += fillStore(relay, owner, channels, stored, target);
        stored = target;
        const std::string size =
            target >= 1000 ? std::to_string(target / 1000) + "k" : std::to_string(target);
        const StoreSize store = storeSize(storeDir->path());
        const double perEvent = store.events > 0 ? store.bytes / store.events : 0;
        const double jsonPerEvent = double(jsonBytes) / double(target);
        printBench(("relay_store_bytes_per_event_" + size).c_str(), perEvent, "B",
                   target == 200000 ? "<= 2x json" : "-", "canonical_json_bytes", jsonPerEvent,
                   perEvent / jsonPerEvent);
        const auto head = measure(http, headRead, 400);
        const auto page = measure(http, historyPage, 200);
        const std::string headName = "relay_query_head_" + size;
        const std::string pageName = "relay_query_page100_" + size;
        const char *headTarget = target == 200000 ? "<= 5 ms" : "-";
        printBench((headName + "_p50").c_str(), head.p50, "ms", "-", nullptr, 0, 0);
        printBench((headName + "_p99").c_str(), head.p99, "ms", headTarget, nullptr, 0, 0);
        printBench((pageName + "_p50").c_str(), page.p50, "ms", "-", nullptr, 0, 0);
        printBench((pageName + "_p99").c_str(), page.p99, "ms", "-", nullptr, 0, 0);
    }
    return 0;
}
