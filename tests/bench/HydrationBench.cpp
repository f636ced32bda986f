#include "HydrationBench.h"

#include "relay/routing/WriterOnlyRouter.h"
#include "relay/search/ExactPairHydrator.h"
#include "relay/store/HexKey.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgExactPairLookup.h"
#include "relay/store/postgres/PgStore.h"
#include "relay/store/sqlite/SqliteRowWriter.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QTemporaryDir>

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <random>

namespace buzz::relay::bench {

namespace {
using Clock = std::chrono::steady_clock;
constexpr std::int64_t kFirstSec = 1'767'225'600; // 2026-01-01: PgSchema's first month partition
constexpr std::int64_t kSpanSec = 334 * 86'400; // to 2026-12-01: eleven months
constexpr int kChannels = 20;
const std::string kCommunity = "local";

std::string bulkChannel(int index)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "00000000-0000-4000-8000-%012d", index);
    return buffer;
}

// The i-th synthetic event of the load (the same sequence for both stores).
class EventSource
{
public:
    StoredEvent next()
    {
        StoredEvent stored;
        nostr::Event &event = stored.event;
        event.id = HydrationBench::randomHex(m_random, 64);
        event.pubkey = m_authors[std::size_t(m_index % m_authors.size())];
        event.createdAt = kFirstSec + std::int64_t(m_random() % kSpanSec);
        event.kind = 9;
        stored.channel = bulkChannel(m_index % kChannels);
        event.tags = {{"h", *stored.channel}};
        event.content = "bulk note " + std::to_string(m_index) + " about w"
            + std::to_string(m_random() % 5000) + " and w" + std::to_string(m_random() % 5000);
        event.sig = HydrationBench::randomHex(m_random, 128);
        stored.community = kCommunity;
        ++m_index;
        return stored;
    }

private:
    std::mt19937_64 m_random {42}; // before m_authors, which it draws
    std::vector<std::string> m_authors = [this] {
        std::vector<std::string> authors;
        for (int i = 0; i < 50; ++i)
            authors.push_back(HydrationBench::randomHex(m_random, 64));
        return authors;
    }();

    int m_index = 0;
};

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const auto index = std::size_t(p * double(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

double threadCpuMs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

// kBatches shuffled batches of kPairs sampled pairs through `hydrate` (rows found).
void measure(std::vector<search::EventPair> sample,
             const std::function<std::size_t(std::span<const search::EventPair>)> &hydrate,
             std::vector<double> &wallMs, std::vector<double> &cpuMs, std::size_t &found,
             std::size_t &asked)
{
    // Every sampled row read once first: the figure is the lookup on a warm cache, not the disk.
    for (std::size_t at = 0; at < sample.size(); at += HydrationBench::kPairs)
        hydrate(std::span<const search::EventPair>(sample).subspan(
            at, std::min<std::size_t>(HydrationBench::kPairs, sample.size() - at)));
    std::mt19937_64 random(7);
    for (int batch = 0; batch < HydrationBench::kBatches; ++batch) {
        std::shuffle(sample.begin(), sample.end(), random);
        const std::span<const search::EventPair> pairs(
            sample.data(), std::min<std::size_t>(HydrationBench::kPairs, sample.size()));
        const auto start = Clock::now();
        const double cpu = threadCpuMs();
        found += hydrate(pairs);
        cpuMs.push_back(threadCpuMs() - cpu);
        wallMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        asked += pairs.size();
    }
}

// The hydrator (routed on the Bounded arm, here to the writer) over `sample`.
HydrationFigures onWriter(store::Store &store, const std::vector<search::EventPair> &sample,
                          double loadSeconds)
{
    routing::WriterOnlyRouter router(store);
    search::ExactPairHydrator hydrator(router);
    std::vector<double> wallMs, cpuMs;
    HydrationFigures figures;
    measure(
        sample,
        [&](std::span<const search::EventPair> pairs) {
            return hydrator.hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate)
                .events.size();
        },
        wallMs, cpuMs, figures.found, figures.asked);
    figures.p50Ms = percentile(wallMs, 0.5);
    figures.p99Ms = percentile(wallMs, 0.99);
    figures.cpuP50Ms = percentile(cpuMs, 0.5);
    figures.loadSeconds = loadSeconds;
    return figures;
}

// One COPY row (text format) of `stored` into `line`.
void appendCopyRow(std::string &line, const StoredEvent &stored)
{
    const nostr::Event &event = stored.event;
    const auto timestamp = [&](std::int64_t unixSeconds) {
        const std::time_t seconds = std::time_t(unixSeconds);
        std::tm utc {};
        gmtime_r(&seconds, &utc);
        char text[32];
        std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S+00", &utc);
        line += text;
    };
    // bytea in hex input form; the backslash doubled for COPY's own escaping.
    const auto bytea = [&](const std::string &hex) {
        line += "\\\\x";
        line += hex;
    };
    line += kCommunity;
    line += '\t';
    timestamp(event.createdAt);
    line += '\t';
    bytea(event.id);
    line += '\t';
    line += std::to_string(event.kind);
    line += '\t';
    bytea(event.pubkey);
    line += '\t';
    line += *stored.channel;
    line += '\t';
    timestamp(event.createdAt);
    line += '\t';
    bytea(event.sig);
    line += '\t';
    // No tab, newline or backslash in the bench's tags and contents (COPY would need them escaped).
    line += store::SqliteRowWriter::tagsJson(event.tags);
    line += '\t';
    line += event.content;
    line += '\n';
}

} // namespace

std::string HydrationBench::randomHex(std::mt19937_64 &random, int chars)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(std::size_t(chars), '0');
    std::uint64_t bits = 0;
    for (int i = 0; i < chars; ++i, bits >>= 4) {
        if (i % 16 == 0)
            bits = random();
        out[std::size_t(i)] = digits[bits & 15];
    }
    return out;
}

bool HydrationBench::copyEvents(store::PgConnection &connection, int count,
                                const std::function<StoredEvent()> &next,
                                std::vector<search::EventPair> *sample)
{
    const std::size_t every = std::size_t(std::max(1, count / 5000));
    for (int done = 0; done < count;) {
        PGresult *begun = PQexec(connection.handle(),
                                 "COPY events (community, created_at, id, kind, pubkey, channel, "
                                 "received_at, sig, tags, content) FROM STDIN");
        const bool copying = PQresultStatus(begun) == PGRES_COPY_IN;
        if (!copying)
            std::fprintf(stderr, "relay_bench: COPY refused: %s", PQresultErrorMessage(begun));
        PQclear(begun);
        if (!copying)
            return false;
        std::string chunk;
        for (int i = 0; i < 100'000 && done < count; ++i, ++done) {
            const StoredEvent stored = next();
            appendCopyRow(chunk, stored);
            if (sample && std::size_t(done) % every == 0)
                sample->push_back({stored.event.id, stored.event.createdAt});
            if (chunk.size() > (1 << 20)) {
                if (PQputCopyData(connection.handle(), chunk.data(), int(chunk.size())) != 1)
                    return false;
                chunk.clear();
            }
        }
        if (PQputCopyData(connection.handle(), chunk.data(), int(chunk.size())) != 1
            || PQputCopyEnd(connection.handle(), nullptr) != 1)
            return false;
        bool ok = true;
        while (PGresult *result = PQgetResult(connection.handle())) {
            if (PQresultStatus(result) != PGRES_COMMAND_OK) {
                std::fprintf(stderr, "relay_bench: COPY failed: %s", PQresultErrorMessage(result));
                ok = false;
            }
            PQclear(result);
        }
        if (!ok)
            return false;
    }
    return connection.execOk("ANALYZE events");
}

std::optional<HydrationFigures> HydrationBench::sqlite(int events, const QString &parent)
{
    QTemporaryDir dir(parent + QStringLiteral("/relay-bench-hydrate-XXXXXX"));
    std::string error;
    auto database = store::SqliteStore::open(dir.path().toStdString(), error);
    if (!database) {
        std::fprintf(stderr, "relay_bench: %s\n", error.c_str());
        return std::nullopt;
    }
    EventSource source;
    std::vector<search::EventPair> sample;
    const std::size_t every = std::size_t(std::max(1, events / 5000));
    const auto start = Clock::now();
    // No channel rows: hydration reads events only (and SQLite keeps no foreign keys).
    for (int done = 0; done < events;) {
        auto tx = database->beginWrite(kCommunity, 2);
        if (!tx)
            return std::nullopt;
        // Recording off: a bench store has no replica to replay a commit log.
        store::SqliteRowWriter rows(tx->connection(), nullptr);
        for (int i = 0; i < 20'000 && done < events; ++i, ++done) {
            const StoredEvent stored = source.next();
            if (rows.insertEvent(stored, std::nullopt, stored.event.createdAt, std::nullopt)
                != store::EventRows::InsertOutcome::Inserted)
                return std::nullopt;
            if (std::size_t(done) % every == 0)
                sample.push_back({stored.event.id, stored.event.createdAt});
        }
        if (!tx->commit(2))
            return std::nullopt;
    }
    auto analyze = database->beginWrite(kCommunity, 3);
    if (!analyze || !analyze->connection().exec("ANALYZE") || !analyze->commit(3))
        return std::nullopt;
    analyze.reset();
    const double loadSeconds = std::chrono::duration<double>(Clock::now() - start).count();

    return onWriter(*database, sample, loadSeconds);
}

std::optional<HydrationFigures> HydrationBench::postgres(int events, const PgUrls &urls,
                                                         BenchPostgres &cluster)
{
    std::string error;
    auto store = store::PgStore::open(urls.writer, kFirstSec + kSpanSec, error);
    auto loader = store ? store::PgConnection::open(urls.writer, error) : nullptr;
    if (!loader) {
        std::fprintf(stderr, "relay_bench: %s\n", error.c_str());
        return std::nullopt;
    }
    EventSource source;
    std::vector<search::EventPair> sample;
    const auto start = Clock::now();
    if (!copyEvents(
            *loader, events, [&] { return source.next(); }, &sample))
        return std::nullopt;
    const double loadSeconds = std::chrono::duration<double>(Clock::now() - start).count();

    auto figures = measurePostgres(urls, cluster, sample);
    if (figures)
        figures->loadSeconds = loadSeconds;
    return figures;
}

std::optional<HydrationFigures>
HydrationBench::measurePostgres(const PgUrls &urls, BenchPostgres &cluster,
                                const std::vector<search::EventPair> &sample)
{
    std::string error;
    auto store = store::PgStore::open(urls.writer, kFirstSec + kSpanSec, error);
    if (!store) {
        std::fprintf(stderr, "relay_bench: %s\n", error.c_str());
        return std::nullopt;
    }
    HydrationFigures figures = onWriter(*store, sample, 0);
    if (!urls.standby.empty() && cluster.waitForStandby()) {
        if (auto standby = store::PgConnection::open(urls.standby, error)) {
            std::vector<double> standbyMs, standbyCpuMs;
            measure(
                sample,
                [&](std::span<const search::EventPair> pairs) {
                    std::vector<StoredEvent> rows;
                    store::PgExactPairLookup::findPairs(
                        *standby, kCommunity, pairs, store::PgExactPairLookup::Deleted::Omit, rows);
                    return rows.size();
                },
                standbyMs, standbyCpuMs, figures.found, figures.asked);
            figures.standbyP50Ms = percentile(standbyMs, 0.5);
            figures.standbyP99Ms = percentile(standbyMs, 0.99);
        }
    }
    return figures;
}

} // namespace buzz::relay::bench
