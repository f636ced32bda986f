// search_bench: NIP-50 search latency and exact-pair hydration at 100k and 1M stored events.
// Events are written straight through the store (SqliteRowWriter inside write transactions, FTS
// triggers firing as in production) into a temporary directory; nothing is signed, so ids and
// signatures are random hex. Prints BENCH lines (tests/bench/README.md).

#include "relay/routing/WriterOnlyRouter.h"
#include "relay/search/ExactPairHydrator.h"
#include "relay/search/SearchService.h"
#include "relay/store/sqlite/SearchIndexer.h"
#include "relay/store/sqlite/SqliteReadConnection.h"
#include "relay/store/sqlite/SqliteRowWriter.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace buzz;
using namespace buzz::relay;
using Clock = std::chrono::steady_clock;

namespace {
constexpr std::int64_t kStartSec = 1'735'689'600; // 2025-01-01: two years of history, 24 months
constexpr std::int64_t kSpanSec = 2 * 365 * 86'400;
constexpr int kChannels = 20;
constexpr int kAuthors = 50;
constexpr int kVocabulary = 5'000;
const std::string kCommunity = "local";

std::string hex(std::mt19937_64 &random, int chars)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(static_cast<std::size_t>(chars), '0');
    for (int i = 0; i < chars; i += 16) {
        std::uint64_t bits = random();
        for (int j = i; j < std::min(chars, i + 16); ++j, bits >>= 4)
            out[static_cast<std::size_t>(j)] = digits[bits & 15];
    }
    return out;
}

std::string word(int rank)
{
    // Pronounceable, distinct, tokenised as one word: "w" + base-26 letters of the rank.
    std::string out = "w";
    do {
        out += static_cast<char>('a' + rank % 26);
        rank /= 26;
    } while (rank > 0);
    return out;
}

std::string channelId(int index)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "00000000-0000-4000-8000-%012d", index);
    return buffer;
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// This thread's CPU time: on a shared, loaded machine wall time also measures the neighbours.
double threadCpuMs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

void bench(const char *name, double value, const char *unit, const std::string &target,
           const std::string &anchor, const std::string &ratio)
{
    std::printf("BENCH %s | %.3f %s | target %s | anchor %s | ratio %s\n", name, value, unit,
                target.c_str(), anchor.c_str(), ratio.c_str());
    std::fflush(stdout);
}

struct Stored
{
    std::string id;
    std::int64_t createdAt;
};

// `jsonBytes` receives the canonical JSON bytes of the events written.
bool populate(store::SqliteStore &database, int count, std::vector<Stored> &sample,
              std::uint64_t &jsonBytes)
{
    std::mt19937_64 random(42);
    std::vector<std::string> authors;
    for (int i = 0; i < kAuthors; ++i)
        authors.push_back(hex(random, 64));
    {
        auto tx = database.beginWrite(kCommunity, 1);
        // Fixture speed only: a large page cache while populating.
        tx->connection().exec("PRAGMA cache_size=-1048576");
        for (int i = 0; i < kChannels; ++i) {
            model::Channel channel;
            channel.community = kCommunity;
            channel.uuid = channelId(i);
            channel.name = "channel-" + std::to_string(i);
            channel.visibility = "open";
            channel.channelType = "stream";
            channel.createdBy = authors[0];
            channel.createdAt = kStartSec;
            channel.createEventId = hex(random, 64);
            if (!tx->rows().upsertChannel(channel))
                return false;
        }
        if (!tx->commit(1))
            return false;
    }
    // Zipf-like word choice: a few very common words, a long tail.
    std::vector<double> weights(kVocabulary);
    for (int i = 0; i < kVocabulary; ++i)
        weights[static_cast<std::size_t>(i)] = 1.0 / (i + 1);
    std::discrete_distribution<int> pickWord(weights.begin(), weights.end());
    std::uniform_int_distribution<int> wordCount(6, 18);
    std::uniform_int_distribution<std::int64_t> when(0, kSpanSec);

    constexpr int kBatch = 20'000;
    const std::size_t sampleEvery = std::max(1, count / 5'000);
    for (int done = 0; done < count;) {
        auto tx = database.beginWrite(kCommunity, 2);
        if (!tx)
            return false;
        // Recording off: a benchmark fixture needs no commit log for replicas.
        store::SqliteRowWriter rows(tx->connection(), nullptr);
        for (int i = 0; i < kBatch && done < count; ++i, ++done) {
            StoredEvent stored;
            nostr::Event &event = stored.event;
            event.id = hex(random, 64);
            event.pubkey = authors[static_cast<std::size_t>(done % kAuthors)];
            event.createdAt = kStartSec + when(random);
            event.kind = 9;
            const std::string channel = channelId(done % kChannels);
            event.tags = {{"h", channel}};
            const int words = wordCount(random);
            for (int w = 0; w < words; ++w) {
                if (w)
                    event.content += ' ';
                event.content += word(pickWord(random));
            }
            event.sig = hex(random, 128);
            stored.json = event.toJson();
            jsonBytes += stored.json.size();
            stored.community = kCommunity;
            stored.channel = channel;
            if (rows.insertEvent(stored, std::nullopt, event.createdAt, std::nullopt)
                != store::SqliteRowWriter::InsertOutcome::Inserted)
                return false;
            if (static_cast<std::size_t>(done) % sampleEvery == 0)
                sample.push_back({event.id, event.createdAt});
        }
        if (!tx->commit(2))
            return false;
        if (done % 200'000 == 0)
            std::fprintf(stderr, "  %d events\n", done);
    }
    auto tx = database.beginWrite(kCommunity, 3);
    tx->connection().exec("ANALYZE");
    tx->connection().exec("PRAGMA cache_size=-32768");
    return tx->commit(3);
}

void run(int count, const char *label)
{
    QTemporaryDir dir;
    std::string error;
    auto database = store::SqliteStore::open(dir.path().toStdString(), error,
                                             {std::make_shared<store::SearchIndexer>()});
    if (!database) {
        std::fprintf(stderr, "cannot open database: %s\n", error.c_str());
        return;
    }
    std::vector<Stored> sample;
    std::uint64_t jsonBytes = 0;
    auto start = Clock::now();
    if (!populate(*database, count, sample, jsonBytes)) {
        std::fprintf(stderr, "populate failed\n");
        return;
    }
    const double insertSec = msSince(start) / 1000.0;
    bench((std::string("search_insert_rate_") + label).c_str(), count / insertSec, "events/s", "-",
          "-", "-");
    {
        // The whole store (rows, indexes, full-text index) with every WAL frame applied.
        store::ConnectionLease lease = database->leaseWriterConnection();
        auto pages = store::SqliteReadConnection::of(lease).prepare("PRAGMA page_count");
        auto pageSize = store::SqliteReadConnection::of(lease).prepare("PRAGMA page_size");
        const double bytes = pages.step() && pageSize.step()
            ? double(pages.int64(0)) * double(pageSize.int64(0))
            : 0;
        const double json = double(jsonBytes) / count;
        bench((std::string("search_store_mb_") + label).c_str(), bytes / 1e6, "MB", "-", "-", "-");
        bench((std::string("search_store_bytes_per_event_") + label).c_str(), bytes / count, "B",
              "-", "canonical_json_bytes " + std::to_string(json),
              std::to_string(bytes / count / json) + "x");
    }

    routing::WriterOnlyRouter router(*database);
    search::SearchService service(*database, router);
    const RequestContext context {kCommunity, std::string(64, 'a'), Transport::Http};
    std::mt19937_64 random(7);
    // Two words from the common-to-middle band, so queries have real hit lists to rank.
    std::uniform_int_distribution<int> band(5, 200);
    std::vector<double> searchMs;
    std::vector<double> searchCpuMs;
    std::size_t results = 0;
    for (int i = 0; i < 200; ++i) {
        nostr::Filter filter;
        filter.kinds = std::vector<int> {9};
        filter.search = word(band(random)) + " " + word(band(random));
        filter.limit = 20;
        const auto t = Clock::now();
        const double cpu = threadCpuMs();
        const QueryResult result = service.search({filter}, context, ReadPath::BridgeQuery);
        searchCpuMs.push_back(threadCpuMs() - cpu);
        searchMs.push_back(msSince(t));
        results += result.events.size();
    }
    const double p50 = percentile(searchMs, 0.5);
    const double p99 = percentile(searchMs, 0.99);
    bench((std::string("search_two_word_p50_") + label).c_str(), p50, "ms", "-", "-", "-");
    bench((std::string("search_two_word_p99_") + label).c_str(), p99, "ms", "-",
          (std::string("p50 ") + std::to_string(p50)).c_str(),
          std::to_string(p99 / std::max(p50, 1e-9)) + "x");
    bench((std::string("search_two_word_cpu_p50_") + label).c_str(), percentile(searchCpuMs, 0.5),
          "ms", "-", "-", "-");
    std::fprintf(stderr, "%s: %.1f results per two-word query (limit 20)\n", label,
                 static_cast<double>(results) / 200.0);

    // 500 exact pairs vs the same 500 events by id only.
    std::vector<double> pairMs;
    std::vector<double> idMs;
    std::vector<double> pairCpuMs;
    std::vector<double> idCpuMs;
    std::size_t found = 0;
    for (int rep = 0; rep < 40; ++rep) {
        std::shuffle(sample.begin(), sample.end(), random);
        std::vector<search::EventPair> pairs;
        std::vector<std::string> ids;
        for (std::size_t i = 0; i < 500 && i < sample.size(); ++i) {
            pairs.push_back({sample[i].id, sample[i].createdAt});
            ids.push_back(sample[i].id);
        }
        auto t = Clock::now();
        double cpu = threadCpuMs();
        const auto byPair =
            service.hydrator().hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        pairCpuMs.push_back(threadCpuMs() - cpu);
        pairMs.push_back(msSince(t));
        t = Clock::now();
        cpu = threadCpuMs();
        const auto byId =
            service.hydrator().hydrateIds(kCommunity, ids, ReadPath::BridgeSearchHydrate);
        idCpuMs.push_back(threadCpuMs() - cpu);
        idMs.push_back(msSince(t));
        found += byPair.events.size() + byId.events.size();
    }
    const double pair50 = percentile(pairMs, 0.5);
    const double id50 = percentile(idMs, 0.5);
    bench((std::string("search_hydrate_500_pairs_") + label).c_str(), pair50, "ms",
          count >= 1'000'000 ? "<= 10 ms" : "-",
          (std::string("id_only_500 ") + std::to_string(id50)).c_str(),
          std::to_string(pair50 / std::max(id50, 1e-9)) + "x");
    bench((std::string("search_hydrate_500_ids_") + label).c_str(), id50, "ms", "-", "-", "-");
    bench((std::string("search_hydrate_500_pairs_p99_") + label).c_str(), percentile(pairMs, 0.99),
          "ms", "-", "-", "-");
    const double pairCpu = percentile(pairCpuMs, 0.5);
    const double idCpu = percentile(idCpuMs, 0.5);
    bench((std::string("search_hydrate_500_pairs_cpu_") + label).c_str(), pairCpu, "ms", "-",
          (std::string("id_only_500_cpu ") + std::to_string(idCpu)).c_str(),
          std::to_string(pairCpu / std::max(idCpu, 1e-9)) + "x");
    if (found != 80 * 500)
        std::fprintf(stderr, "warning: hydration found %zu of %d rows\n", found, 80 * 500);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    run(100'000, "100k");
    if (!quick)
        run(1'000'000, "1m");
    return 0;
}
