#include "relay/RelayEngine.h"

#include "net/nostr/Keys.h"
#include "relay/ingest/DemoSeeder.h"
#include "relay/ingest/IngestPipeline.h"
#include "relay/ingest/RelayEmitter.h"
#include "relay/query/QueryService.h"
#include "relay/store/Database.h"

#include <QLoggingCategory>

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>

Q_LOGGING_CATEGORY(lcEngine, "buzz.relay.engine")

namespace buzz::relay {

int IngestResult::httpStatus() const
{
    switch (status) {
    case Status::Stored:
    case Status::Duplicate:
    case Status::RejectedDuplicate:
        return 200;
    case Status::Rejected:
        return 400;
    case Status::Conflict:
        return 409;
    case Status::Forbidden:
        return 403;
    case Status::Internal:
        return 500;
    }
    return 500;
}

namespace {
constexpr std::array kIngestResultNames = {
    "stored", "duplicate", "rejected_duplicate", "rejected", "conflict", "forbidden", "internal"};
constexpr std::array kReadPathNames = {
    "bridge_query", "bridge_count",       "bridge_count_fallback", "req_historical",
    "count_req",    "count_req_fallback", "bridge_thread_aux",     "search_hydrate"};
constexpr std::array kQueryStatusNames = {"ok",        "bad_request", "forbidden",
                                          "timed_out", "retryable",   "internal"};

nostr::SecretKey relayKey(const std::string &hex)
{
    if (!hex.empty()) {
        auto parsed = nostr::SecretKey::parse(hex);
        if (parsed)
            return std::move(parsed).value();
        qCWarning(lcEngine) << "relay secret key is invalid; generating a fresh one";
    }
    return nostr::SecretKey::generate();
}
} // namespace

class RelayEngine::Impl
{
public:
    explicit Impl(Options options)
        : clock(std::move(options.clock))
        , emitter(relayKey(options.relaySecretKeyHex))
    {
        std::string error;
        database = store::Database::open(options.dataDir, error);
        if (!database) {
            startupError = error;
            qCCritical(lcEngine) << "cannot open the relay database:" << error.c_str();
            return;
        }
        pipeline = std::make_unique<ingest::IngestPipeline>(*database, emitter);
        queries = std::make_unique<query::QueryService>(*database);
        qCInfo(lcEngine) << "writer database:"
                         << (options.dataDir ? options.dataDir->c_str() : "in memory");
    }

    std::int64_t nowSeconds() const
    {
        if (clock)
            return clock();
        return std::chrono::duration_cast<std::chrono::seconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }
    std::int64_t nowMs() const
    {
        if (clock)
            return clock() * 1000;
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    IngestResult ingest(const nostr::Event &event, const RequestContext &context)
    {
        IngestResult result {IngestResult::Status::Internal, "error: internal server error"};
        if (pipeline) {
            auto outcome = pipeline->ingest(event, context, nowSeconds(), nowMs());
            result = outcome.result;
            if (!outcome.committed.empty()) {
                std::function<void(const StoredEvent &)> notify;
                {
                    std::lock_guard guard(listenerMutex);
                    notify = listener;
                }
                if (notify) {
                    for (const auto &stored : outcome.committed)
                        notify(stored);
                }
            }
        }
        ingestCounts[static_cast<std::size_t>(result.status)].fetch_add(1,
                                                                        std::memory_order_relaxed);
        return result;
    }

    void countQuery(ReadPath path, const QueryResult &result)
    {
        queryCounts[static_cast<std::size_t>(path)].fetch_add(1, std::memory_order_relaxed);
        queryStatusCounts[static_cast<std::size_t>(result.status)].fetch_add(
            1, std::memory_order_relaxed);
    }

    std::function<std::int64_t()> clock;
    ingest::RelayEmitter emitter;
    std::unique_ptr<store::Database> database;
    std::unique_ptr<ingest::IngestPipeline> pipeline;
    std::unique_ptr<query::QueryService> queries;
    std::string startupError;

    std::mutex listenerMutex;
    std::function<void(const StoredEvent &)> listener;

    std::array<std::atomic<std::uint64_t>, kIngestResultNames.size()> ingestCounts {};
    std::array<std::atomic<std::uint64_t>, kReadPathNames.size()> queryCounts {};
    std::array<std::atomic<std::uint64_t>, kQueryStatusNames.size()> queryStatusCounts {};
};

RelayEngine::RelayEngine(Options options)
    : d(std::make_unique<Impl>(std::move(options)))
{ }

RelayEngine::~RelayEngine() = default;

IngestResult RelayEngine::ingest(const nostr::Event &event, const RequestContext &context)
{
    return d->ingest(event, context);
}

QueryResult RelayEngine::query(const std::vector<nostr::Filter> &filters,
                               const RequestContext &context, ReadPath path)
{
    QueryResult result;
    if (d->queries)
        result = d->queries->query(filters, context, path);
    else
        result.status = QueryResult::Status::Internal, result.message = "internal server error";
    d->countQuery(path, result);
    return result;
}

QueryResult RelayEngine::count(const std::vector<nostr::Filter> &filters,
                               const RequestContext &context, ReadPath path)
{
    QueryResult result;
    if (d->queries)
        result = d->queries->count(filters, context, path);
    else
        result.status = QueryResult::Status::Internal, result.message = "internal server error";
    d->countQuery(path, result);
    return result;
}

AdmissionResult RelayEngine::admitSubscription(const std::vector<nostr::Filter> &filters,
                                               const RequestContext &context)
{
    if (!d->queries)
        return std::string("error: database error");
    return d->queries->admit(filters, context);
}

bool RelayEngine::canRead(const std::string &community, const std::string &channel,
                          const std::string &pubkey)
{
    return d->queries && d->queries->canRead(community, channel, pubkey);
}

void RelayEngine::setCommitListener(std::function<void(const StoredEvent &)> listener)
{
    std::lock_guard guard(d->listenerMutex);
    d->listener = std::move(listener);
}

void RelayEngine::seedDemo(const std::string &community)
{
    ingest::DemoSeeder::seed(community, d->nowSeconds(),
                             [this](const nostr::Event &event, const RequestContext &context) {
                                 return ingest(event, context);
                             });
}

std::string RelayEngine::relayPublicKeyHex() const
{
    return d->emitter.publicKeyHex();
}

std::string RelayEngine::startupError() const
{
    return d->startupError;
}

std::string RelayEngine::metricsText() const
{
    std::string out;
    out += "# HELP buzz_ingest_total Events submitted, by ingest outcome.\n# TYPE "
           "buzz_ingest_total counter\n";
    for (std::size_t i = 0; i < kIngestResultNames.size(); ++i)
        out += std::string("buzz_ingest_total{result=\"") + kIngestResultNames[i] + "\"} "
            + std::to_string(d->ingestCounts[i].load(std::memory_order_relaxed)) + "\n";
    out +=
        "# HELP buzz_query_total Reads served, by caller path.\n# TYPE buzz_query_total counter\n";
    for (std::size_t i = 0; i < kReadPathNames.size(); ++i)
        out += std::string("buzz_query_total{path=\"") + kReadPathNames[i] + "\"} "
            + std::to_string(d->queryCounts[i].load(std::memory_order_relaxed)) + "\n";
    out += "# HELP buzz_query_result_total Reads, by outcome.\n# TYPE buzz_query_result_total "
           "counter\n";
    for (std::size_t i = 0; i < kQueryStatusNames.size(); ++i)
        out += std::string("buzz_query_result_total{status=\"") + kQueryStatusNames[i] + "\"} "
            + std::to_string(d->queryStatusCounts[i].load(std::memory_order_relaxed)) + "\n";
    out += "# HELP buzz_commit_log_lsn Last committed commit-log sequence number.\n# TYPE "
           "buzz_commit_log_lsn "
           "gauge\nbuzz_commit_log_lsn "
        + std::to_string(d->database ? d->database->lastLsn() : 0) + "\n";
    return out;
}

} // namespace buzz::relay
