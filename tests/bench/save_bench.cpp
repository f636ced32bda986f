// save_bench: the canvas save round trip as a user experiences it (strong precondition + publish +
// strong ancestry verification) over loopback against the in-process relay, and the display head
// read the canvas view uses. Prints p50/p99 against the targets (save p50 <= 5 ms, p99 <= 20 ms).

#include "CanvasTestSupport.h"
#include "RelayTestFixture.h"
#include "canvas/CanvasService.h"
#include "net/client/RelayConnection.h"

#include <QCoreApplication>
#include <QCoroTask>
#include <QElapsedTimer>
#include <QEventLoop>

#include "net/client/RequestLog.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

using namespace buzz;
using buzz::test::await;

namespace {

struct Stats
{
    double p50, p99, mean, max;
};

Stats summarize(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    double sum = 0;
    for (double sample : samples)
        sum += sample;
    auto at = [&](double q) {
        return samples[std::min(samples.size() - 1, std::size_t(q * double(samples.size())))];
    };
    return {at(0.50), at(0.99), sum / double(samples.size()), samples.back()};
}

void print(const char *name, const Stats &stats, double p50Target, double p99Target)
{
    std::printf("%-22s p50 %7.3f ms  p99 %7.3f ms  mean %7.3f ms  max %7.3f ms", name, stats.p50,
                stats.p99, stats.mean, stats.max);
    if (p50Target > 0)
        std::printf("  [target p50 <= %.0f ms: %s, p99 <= %.0f ms: %s]", p50Target,
                    stats.p50 <= p50Target ? "met" : "MISSED", p99Target,
                    stats.p99 <= p99Target ? "met" : "MISSED");
    std::printf("\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int count = argc > 1 ? std::max(10, std::atoi(argv[1])) : 1000;

    relay::test::RelayTestFixture::Options options;
    options.systemClock = true;
    relay::test::RelayTestFixture relay(options);
    if (!relay.isListening()) {
        std::fprintf(stderr, "relay did not start\n");
        return 1;
    }
    relay::test::TestIdentity user;
    // Each save is stamped max(now, head + 1) and a head more than 60 s ahead is refused, so one
    // channel sustains about one save per second. Spread the run over channels (10 saves each).
    const int channelCount = std::max(1, count / 10);
    std::vector<QString> channels;
    for (int i = 0; i < channelCount; ++i)
        channels.push_back(QString::fromStdString(relay.createChannel(user, "bench")));
    const QString channel = channels.front();

    client::RelayConnection connection(relay.wsUrl());
    connection.signer()->setKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
    canvas::CanvasService service(&connection);

    // Warm up the connection and the relay's caches.
    std::vector<std::optional<canvas::CanvasRevision>> heads(channels.size());
    for (std::size_t c = 0; c < std::min<std::size_t>(channels.size(), 5); ++c) {
        auto outcome = await(service.save(channels[c], heads[c], QStringLiteral("warm-up\n")));
        heads[c] = outcome.saved;
    }

    connection.requestLog()->clear();
    std::vector<double> saves, reads;
    saves.reserve(std::size_t(count));
    reads.reserve(std::size_t(count));
    const QString body =
        QStringLiteral("# Weekly plan\n\n") + QString(1500, QLatin1Char('x')) + QLatin1Char('\n');
    int failures = 0;
    QElapsedTimer timer;
    for (int i = 0; i < count; ++i) {
        const std::size_t c = std::size_t(i) % channels.size();
        timer.start();
        auto outcome = await(service.save(channels[c], heads[c], body + QString::number(i)));
        saves.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (outcome.kind != canvas::SaveOutcome::Kind::SavedVerified) {
            if (failures++ == 0)
                std::fprintf(stderr, "first failure: %s %s\n", qPrintable(outcome.kindName()),
                             outcome.error ? qPrintable(outcome.error->detail) : "");
        }
        heads[c] = outcome.saved;
    }
    // Where a save's time goes, per request (from the RequestLog, as --trace sees it).
    std::map<QString, std::vector<double>> byCaller;
    for (const auto &entry : connection.requestLog()->entries())
        byCaller[entry.caller].push_back(entry.latencyMs);
    for (int i = 0; i < count; ++i) {
        timer.start();
        auto read = await(service.head(channel, canvas::ReadIntent::Display));
        reads.push_back(double(timer.nsecsElapsed()) / 1e6);
        if (!read)
            ++failures;
    }

    std::printf("save_bench: %d channels, ", channelCount);
    std::printf(
        "%d saves (strong precondition + publish + strong 256-deep ancestry) and %d display "
        "head reads over loopback, in-process relay, %d-byte canvas\n",
        count, count, int(body.size()));
    const Stats saveStats = summarize(saves);
    const Stats readStats = summarize(reads);
    print("save round trip", saveStats, 5, 20);
    print("display head read", readStats, 0, 0);
    for (const auto &[caller, samples] : byCaller)
        print(qPrintable(QStringLiteral("  ") + caller), summarize(samples), 0, 0);
    std::printf("ratio save/read p50: %.2fx  (a save is 3 requests: 2 strong reads + 1 publish)\n",
                saveStats.p50 / readStats.p50);
    std::printf("failures: %d\n", failures);
    // The report's table (tests/bench/README.md): the save anchored on the display read it
    // costs three of.
    std::printf(
        "BENCH save_round_trip_p50 | %.3f ms | target <= 5 ms | anchor display_head_read_p50 "
        "%.3f | ratio %.2f\n",
        saveStats.p50, readStats.p50, saveStats.p50 / readStats.p50);
    std::printf("BENCH save_round_trip_p99 | %.3f ms | target <= 20 ms | anchor "
                "display_head_read_p99 %.3f | ratio %.2f\n",
                saveStats.p99, readStats.p99, saveStats.p99 / readStats.p99);
    std::printf("BENCH display_head_read_p50 | %.3f ms | target - | anchor - | ratio -\n",
                readStats.p50);
    std::printf("BENCH display_head_read_p99 | %.3f ms | target - | anchor - | ratio -\n",
                readStats.p99);
    std::printf("BENCH save_failures | %d | target <= 0 | anchor - | ratio -\n", failures);
    return failures == 0 ? 0 : 1;
}
