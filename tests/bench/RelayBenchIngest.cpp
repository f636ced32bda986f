#include "RelayBenchIngest.h"

#include "RelayProcess.h"
#include "RelayTestFixtureWsClient.h"
#include "WsLoadClient.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <thread>

#include <time.h>

#include <sys/vfs.h>
#include <unistd.h>

namespace buzz::relay::bench {

using namespace buzz::relay::test;

namespace {
// Keep a window of events in flight per connection, like a busy client.
constexpr int kWindow = 64;

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

double printThreadCpu(const std::string &prefix, const std::map<std::string, double> &before,
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
    return total / events * 1e6;
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

quint16 startBenchRelay(QProcess &relay, const QStringList &arguments)
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
    return startRelayProcess(relay, command, arguments, environment);
}

double printGroupSize(quint16 port, const std::string &name)
{
    const double groups = metricValue(port, "buzz_commit_groups_total");
    const double members = metricValue(port, "buzz_commit_group_members_total");
    const double perGroup = groups > 0 ? members / groups : 0;
    printBench(name.c_str(), perGroup, "events", "-", nullptr, 0, 0);
    return perGroup;
}
} // namespace

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

ParseVerify parseVerifyRate(const std::vector<nostr::Event> &events)
{
    std::vector<std::string> lines;
    lines.reserve(events.size());
    for (const auto &event : events)
        lines.push_back(event.toJson());
    const auto threadCpu = [] {
        timespec now {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
    };
    QElapsedTimer timer;
    timer.start();
    const double cpuBefore = threadCpu();
    std::size_t valid = 0;
    for (const auto &line : lines) {
        const auto parsed = nostr::Event::fromJson(std::string_view(line));
        valid += parsed && parsed->verify() ? 1 : 0;
    }
    const double cpu = threadCpu() - cpuBefore;
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (valid != lines.size())
        std::fprintf(stderr, "relay_bench: %zu events failed parse+verify\n", lines.size() - valid);
    return {double(lines.size()) / seconds, cpu / double(lines.size()) * 1e6};
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

// The measured figure: the lean client (WsLoadClient, one blocking thread per connection) frames
// every event before the clock starts, so as much of the two cores as possible goes to the relay.
// `relayArguments`: --data DIR (on disk, synchronous=FULL), none (in memory), --database-url ….
double wsIngestRate(const std::vector<TestIdentity> &identities, int perConnection,
                    const std::string &prefix, const QStringList &relayArguments, IngestCost *cost)
{
    QProcess relay;
    const quint16 port = startBenchRelay(relay, relayArguments);
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
    const double cpu =
        printThreadCpu(prefix, cpuBefore, threadCpuSeconds(relay.processId()), acknowledged);
    const double perCommit = printGroupSize(port, prefix + "_events_per_commit");
    if (cost)
        *cost = {cpu, perCommit};
    if (relayArguments.contains(QStringLiteral("--data")))
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
    const quint16 port = startBenchRelay(relay, {});
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

} // namespace buzz::relay::bench
