// Routing figures: the share of subscription-history pages (head page + keyset pages back through
// two hours of channel history) that replicas serve at replica lag 0, 200 ms and 2 s with a 1 s
// budget, and the latency routing adds to a history read compared with writer-only (budget 0).
// Simulated time (manual clock, heartbeat every 500 ms, replay after every step), real read
// timings. Prints BENCH lines (tests/bench/README.md).

#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/replication/RelayClock.h"
#include "relay/replication/sqlite/ReplicaSet.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace buzz;
using namespace buzz::relay;

namespace {
const std::string kChannel = "5a0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";
constexpr std::int64_t kStartMs = 1'790'000'000'000;
constexpr int kPageSize = 50;
constexpr int kPagesPerSession = 12;

struct Figures
{
    int historyReads = 0;
    int replicaReads = 0;
    int headReads = 0;
    int replicaHeadReads = 0;
    double totalReadUs = 0;
    std::vector<double> readUs;
};

void bench(const char *name, double value, const char *unit, const std::string &anchor,
           const std::string &ratio)
{
    std::printf("BENCH %s | %.3f %s | target - | anchor %s | ratio %s\n", name, value, unit,
                anchor.c_str(), ratio.c_str());
    std::fflush(stdout);
}

Figures run(std::int64_t lagMs, std::int64_t budgetMs)
{
    auto clock = replication::RelayClock::manual(kStartMs - 7'200'000);
    RelayEngine::Options options;
    options.relaySecretKeyHex = std::string(63, '0') + "1";
    options.replicas = 1;
    options.replicaLagMs = lagMs;
    options.readBudgetMs = budgetMs;
    options.relayClock = clock;
    options.replicationDriver = false;
    RelayEngine engine(std::move(options));
    auto &replicas = *engine.replicaSet();
    const nostr::SecretKey key = nostr::SecretKey::generate();
    const RequestContext context {"local", key.publicKeyHex(), Transport::WebSocket};
    auto sign = [&](int kind, nostr::Tags tags, std::string content) {
        nostr::Event event;
        event.kind = kind;
        event.createdAt = clock->nowSec();
        event.tags = std::move(tags);
        event.content = std::move(content);
        key.signEvent(event);
        return event;
    };
    engine.ingest(sign(9007, {{"h", kChannel}, {"name", "bench"}, {"visibility", "open"}}, ""),
                  context);
    // Two hours of history, one message every 3 s.
    for (int i = 0; i < 2400; ++i) {
        engine.ingest(sign(9, {{"h", kChannel}}, "history " + std::to_string(i)), context);
        clock->advanceMs(3000);
        replicas.tick();
    }
    Figures figures;
    std::string page = "[{\"kinds\":[9],\"#h\":[\"" + kChannel
        + "\"],\"limit\":" + std::to_string(kPageSize) + "}]";
    int pageInSession = 0;
    // Live: a message every 100 ms, a history page every 50 ms, replay after every step.
    for (int step = 0; step < 1200; ++step) {
        if (step % 2 == 0)
            engine.ingest(sign(9, {{"h", kChannel}}, "live " + std::to_string(step)), context);
        clock->advanceMs(50);
        replicas.tick();
        auto filters = nostr::Filter::listFromJson(page);
        const auto started = std::chrono::steady_clock::now();
        const QueryResult result = engine.query(filters.value(), context, ReadPath::ReqHistorical);
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started)
                .count();
        figures.readUs.push_back(us);
        figures.totalReadUs += us;
        ++figures.historyReads;
        if (result.route == "replica")
            ++figures.replicaReads;
        if (pageInSession == 0) {
            ++figures.headReads;
            if (result.route == "replica")
                ++figures.replicaHeadReads;
        }
        if (++pageInSession == kPagesPerSession
            || static_cast<int>(result.events.size()) < kPageSize) {
            pageInSession = 0;
            page = "[{\"kinds\":[9],\"#h\":[\"" + kChannel
                + "\"],\"limit\":" + std::to_string(kPageSize) + "}]";
        } else {
            const auto &last = result.events.back().event;
            page = "[{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"limit\":"
                + std::to_string(kPageSize) + ",\"until\":" + std::to_string(last.createdAt)
                + ",\"before_id\":\"" + last.id + "\"}]";
        }
    }
    return figures;
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return values.empty()
        ? 0
        : values[std::min(values.size() - 1, std::size_t(p * double(values.size())))];
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    for (const std::int64_t lag : {0, 200, 2000}) {
        const Figures f = run(lag, 1000);
        const double share = 100.0 * f.replicaReads / std::max(1, f.historyReads);
        const std::string name =
            "routing_replica_share_lag_" + std::to_string(lag) + "ms_budget_1000ms";
        bench(name.c_str(), share, "%", "history_pages " + std::to_string(f.historyReads), "-");
        const double headShare = 100.0 * f.replicaHeadReads / std::max(1, f.headReads);
        const std::string headName =
            "routing_replica_share_head_pages_lag_" + std::to_string(lag) + "ms";
        bench(headName.c_str(), headShare, "%", "head_pages " + std::to_string(f.headReads), "-");
        const int cursorReads = f.historyReads - f.headReads;
        const double cursorShare =
            100.0 * (f.replicaReads - f.replicaHeadReads) / std::max(1, cursorReads);
        const std::string cursorName =
            "routing_replica_share_cursor_pages_lag_" + std::to_string(lag) + "ms";
        bench(cursorName.c_str(), cursorShare, "%", "cursor_pages " + std::to_string(cursorReads),
              "-");
    }
    const Figures writer = run(0, 0);
    const Figures routed = run(0, 1000);
    const double writerMean = writer.totalReadUs / std::max(1, writer.historyReads);
    const double routedMean = routed.totalReadUs / std::max(1, routed.historyReads);
    char anchor[64];
    std::snprintf(anchor, sizeof anchor, "writer_only_mean_us %.1f", writerMean);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3f", routedMean / writerMean);
    bench("routing_history_read_mean_us", routedMean, "us", anchor, ratio);
    bench("routing_added_latency_mean_us", routedMean - writerMean, "us", anchor, "-");
    std::snprintf(anchor, sizeof anchor, "writer_only_p99_us %.1f",
                  percentile(writer.readUs, 0.99));
    std::snprintf(ratio, sizeof ratio, "%.3f",
                  percentile(routed.readUs, 0.99) / percentile(writer.readUs, 0.99));
    bench("routing_history_read_p99_us", percentile(routed.readUs, 0.99), "us", anchor, ratio);
    return 0;
}
