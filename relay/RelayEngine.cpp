#include "relay/RelayEngine.h"

#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"
#include "relay/ingest/DemoSeeder.h"
#include "relay/ingest/IngestPipeline.h"
#include "relay/ingest/PresenceQuery.h"
#include "relay/ingest/RelayEmitter.h"
#include "relay/model/MemoryPresenceTable.h"
#include "relay/query/FilterLimits.h"
#include "relay/query/QueryService.h"
#include "relay/replication/RelayClock.h"
#include "relay/replication/ReplicaTiers.h"
#include "relay/routing/ReplicaRouter.h"
#include "relay/routing/WriterOnlyRouter.h"
#include "relay/search/SearchService.h"
#include "relay/store/EventExport.h"
#include "relay/store/Store.h"

#include <QLoggingCategory>

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>

Q_LOGGING_CATEGORY(lcEngine, "buzz.relay.engine")

namespace buzz::relay {

namespace {
constexpr std::array kIngestResultNames = {
    "stored", "duplicate", "rejected_duplicate", "rejected", "conflict", "forbidden", "internal"};
constexpr std::array kReadPathNames = {
    "bridge_query",       "bridge_count",          "bridge_count_fallback", "req_historical",
    "count_req",          "count_req_fallback",    "bridge_thread_aux",     "bridge_search_hydrate",
    "req_search_hydrate", "profile_search_hydrate"};
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
        , mutedEmitter(nostr::SecretKey::generate(), true)
        , relayClock(options.relayClock ? options.relayClock : replication::RelayClock::system())
        , presence(options.presence ? options.presence : std::make_shared<MemoryPresenceTable>())
    {
        if (!open(options))
            return;
        if (tier && tier->size() > 0)
            router = std::make_unique<routing::ReplicaRouter>(*store, *tier);
        else
            router = std::make_unique<routing::WriterOnlyRouter>(*store);
        pipeline = std::make_unique<ingest::IngestPipeline>(*store, emitter, *presence);
        restorer = std::make_unique<ingest::IngestPipeline>(*store, mutedEmitter, *presence);
        queries = std::make_unique<query::QueryService>(*router);
        search = std::make_unique<search::SearchService>(*store, *router);
        search->setReplicas(tier.get()); // full-text queries prefer a replica
        // Events committed through the other processes on the same database reach this one's
        // subscriptions (relay/README.md "Live fan-out across processes"); none on SQLite. Last:
        // its thread delivers into everything above.
        fanout = store->followOtherProcesses(
            [this](std::vector<StoredEvent> events, std::int64_t position) {
                publish(std::move(events), position);
            });
        qCInfo(lcEngine) << "writer database:" << store->describe().c_str();
    }

    replication::ReplicationConfig replicationConfig(const Options &options) const
    {
        replication::ReplicationConfig config;
        config.replicas = options.replicas;
        config.lagMs = options.replicaLagMs;
        config.dataDir = options.dataDir;
        config.clock = relayClock;
        config.runDriver = options.replicationDriver;
        config.budgetMs = options.readBudgetMs;
        config.readPoolSize = options.readPoolSize;
        config.statementTimeout = options.readerStatementTimeout;
        return config;
    }

    // The store (relay/README.md "The storage seam"), what every process on its database shares,
    // and its replica tier.
    bool open(const Options &options)
    {
        store::Store::Options storeOptions;
        storeOptions.dataDir = options.dataDir;
        storeOptions.databaseUrl = options.databaseUrl;
        storeOptions.commitLogRetention = options.commitLogRetention;
        storeOptions.nowSec = nowSeconds();
        std::string error;
        store = store::Store::open(storeOptions, error);
        if (!store) {
            startupError = error;
            qCCritical(lcEngine) << "cannot open the relay database:" << error.c_str();
            return false;
        }
        // Every process on one database answers presence and refuses replayed NIP-98 tokens as
        // one relay (relay/README.md "Several processes on one PostgreSQL").
        std::string sharedError;
        store::Store::Shared shared = store->openShared(sharedError);
        if (shared.presence && !options.presence)
            presence = std::move(shared.presence);
        replays = std::move(shared.replays);
        if (!sharedError.empty())
            qCWarning(lcEngine) << "presence and NIP-98 ids stay in this process:"
                                << sharedError.c_str();
        std::vector<std::string> standbyUrls;
        if (!options.readDatabaseUrl.empty())
            standbyUrls.push_back(options.readDatabaseUrl);
        auto attached =
            replication::ReplicaTiers::attach(*store, replicationConfig(options), standbyUrls);
        if (!attached.error.empty())
            startupError = attached.error;
        if (attached.fatal) {
            replays.reset();
            store.reset();
            return false;
        }
        tier = std::move(attached.tier);
        replicas = attached.simulated;
        return true;
    }

    // The relay's notion of now: Options::clock (seconds) when a test gives one, else the
    // millisecond relay clock that POST /admin/clock shifts.
    std::int64_t nowSeconds() const
    {
        if (clock)
            return clock();
        return relayClock->nowSec();
    }
    std::int64_t nowMs() const
    {
        if (clock)
            return clock() * 1000;
        return relayClock->nowMs();
    }

    ~Impl()
    {
        fanout.reset(); // no delivery from other processes into what is being torn down
        // Queued asynchronous ingests run IngestPipeline code: finish them while it exists.
        if (store)
            store->finishQueuedWrites();
    }

    IngestResult ingest(const nostr::Event &event, const RequestContext &context)
    {
        if (!pipeline)
            return finish(
                {IngestResult {IngestResult::Status::Internal, "error: internal server error"},
                 {}});
        return finish(pipeline->ingest(event, context, nowSeconds(), nowMs()));
    }

    void ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                     std::function<void(IngestResult)> done)
    {
        if (!pipeline) {
            done(finish(
                {IngestResult {IngestResult::Status::Internal, "error: internal server error"},
                 {}}));
            return;
        }
        pipeline->ingestAsync(
            std::move(event), std::move(context), nowSeconds(), nowMs(),
            [this, done = std::move(done)](ingest::IngestPipeline::Outcome outcome) {
                done(finish(std::move(outcome)));
            });
    }

    // Reports committed events to the listener and counts the result.
    IngestResult finish(ingest::IngestPipeline::Outcome outcome)
    {
        if (!outcome.committed.empty())
            publish(std::move(outcome.committed), store->lastLsn());
        ingestCounts[static_cast<std::size_t>(outcome.result.status)].fetch_add(
            1, std::memory_order_relaxed);
        return std::move(outcome.result);
    }

    // Committed events, this process's or (from `fanout`) another's, to the scope positions and
    // the commit listener. `position` was read after their COMMIT.
    void publish(std::vector<StoredEvent> committed, std::int64_t position)
    {
        if (tier && tier->size() > 0) {
            // Before the fan-out: a subscription that went live too late to receive these events
            // live is not served a history by a replica that has not applied them.
            for (const StoredEvent &stored : committed) {
                const int kind = stored.event.kind;
                tier->scopePositions().committed(stored.community, stored.channel, kind,
                                                 kind == nostr::kinds::kDeletion
                                                     || kind == nostr::kinds::kGroupDeleteEvent,
                                                 position);
            }
        }
        std::shared_ptr<const CommitListener> notify;
        {
            std::lock_guard guard(listenerMutex);
            notify = listener;
        }
        if (notify && *notify) {
            for (auto &stored : committed)
                (*notify)(std::make_shared<const StoredEvent>(std::move(stored)));
        }
    }

    void countQuery(ReadPath path, const QueryResult &result)
    {
        queryCounts[static_cast<std::size_t>(path)].fetch_add(1, std::memory_order_relaxed);
        queryStatusCounts[static_cast<std::size_t>(result.status)].fetch_add(
            1, std::memory_order_relaxed);
    }

    // Declared in dependency order: each member is destroyed before what it refers to.
    std::function<std::int64_t()> clock;
    ingest::RelayEmitter emitter;
    ingest::RelayEmitter mutedEmitter; // the import's: the export carries the relay's events
    std::shared_ptr<replication::RelayClock> relayClock;
    std::shared_ptr<PresenceTable> presence;
    std::shared_ptr<SharedReplayCache> replays; // null: this process's own cache is the only one
    std::unique_ptr<store::Store> store; // SQLite or PostgreSQL behind one interface
    std::unique_ptr<replication::ReplicaTier> tier; // that store's replicas or standby
    replication::ReplicaSet *replicas = nullptr; // `tier` when it is SQLite's simulated replicas
    std::unique_ptr<routing::ReadRouter> router;
    std::unique_ptr<ingest::IngestPipeline> pipeline;
    std::unique_ptr<ingest::IngestPipeline> restorer; // on mutedEmitter
    std::unique_ptr<query::QueryService> queries;
    std::unique_ptr<search::SearchService> search;
    std::string startupError;

    std::mutex listenerMutex;
    std::shared_ptr<const CommitListener> listener; // copied per commit: a pointer, not a closure

    std::array<std::atomic<std::uint64_t>, kIngestResultNames.size()> ingestCounts {};
    std::array<std::atomic<std::uint64_t>, kReadPathNames.size()> queryCounts {};
    std::array<std::atomic<std::uint64_t>, kQueryStatusNames.size()> queryStatusCounts {};
    // Last: its thread delivers into the members above, so it stops first.
    std::unique_ptr<store::CrossProcessFeed> fanout;
};

RelayEngine::RelayEngine(Options options)
    : d(std::make_unique<Impl>(std::move(options)))
{ }

RelayEngine::~RelayEngine() = default;

IngestResult RelayEngine::ingest(const nostr::Event &event, const RequestContext &context)
{
    return d->ingest(event, context);
}

void RelayEngine::ingestAsync(std::shared_ptr<const nostr::Event> event, RequestContext context,
                              std::function<void(IngestResult)> done)
{
    d->ingestAsync(std::move(event), std::move(context), std::move(done));
}

void RelayEngine::restoreAsync(std::shared_ptr<const nostr::Event> event, std::string community,
                               std::function<void(IngestResult)> done)
{
    if (!d->restorer) {
        done(IngestResult {IngestResult::Status::Internal, "error: internal server error"});
        return;
    }
    d->restorer->restoreAsync(std::move(event), std::move(community), d->nowMs(),
                              [done = std::move(done)](ingest::IngestPipeline::Outcome outcome) {
                                  done(std::move(outcome.result));
                              });
}

bool RelayEngine::exportEvents(const std::string &community,
                               const std::function<void(const std::string &json)> &line,
                               std::string &error)
{
    if (!d->store) {
        error = d->startupError;
        return false;
    }
    const store::ConnectionLease lease = d->store->leaseWriterConnection();
    return store::EventExport::forEach(
        lease, community, [&line](const StoredEvent &stored) { line(stored.json); }, error);
}

std::shared_ptr<SharedReplayCache> RelayEngine::sharedReplayCache() const
{
    return d->replays;
}

void RelayEngine::setOutboundBudget(std::shared_ptr<OutboundBudget> budget)
{
    if (d->queries)
        d->queries->setOutboundBudget(std::move(budget));
}

QueryResult RelayEngine::query(const std::vector<nostr::Filter> &filters,
                               const RequestContext &context, ReadPath path)
{
    QueryResult result;
    if (auto refused = query::FilterLimits::check(filters))
        result = QueryResult {QueryResult::Status::BadRequest, *refused};
    else if (d->search && search::SearchService::isSearch(filters))
        result = d->search->search(filters, context, path); // NIP-50: the whole request
    else if (ingest::PresenceQuery::matches(filters)) // never stored: the table answers
        result = ingest::PresenceQuery::answer(filters, *d->presence, d->emitter, context.community,
                                               d->nowSeconds());
    else if (d->queries)
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
    if (auto refused = query::FilterLimits::check(filters))
        result = QueryResult {QueryResult::Status::BadRequest, *refused};
    else if (d->queries)
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
    if (auto refused = query::FilterLimits::check(filters))
        return refused;
    return d->queries->admit(filters, context);
}

bool RelayEngine::canRead(const std::string &community, const std::string &channel,
                          const std::string &pubkey)
{
    return d->queries && d->queries->canRead(community, channel, pubkey);
}

void RelayEngine::setCommitListener(CommitListener listener)
{
    auto shared = std::make_shared<const CommitListener>(std::move(listener));
    std::lock_guard guard(d->listenerMutex);
    d->listener = std::move(shared);
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

replication::ReplicaSet *RelayEngine::replicaSet() const
{
    return d->replicas;
}

replication::ReplicaTier *RelayEngine::replicaTier() const
{
    return d->tier.get();
}

replication::RelayClock &RelayEngine::relayClock() const
{
    return *d->relayClock;
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
        + std::to_string(d->store ? d->store->lastLsn() : 0) + "\n";
    out += "# HELP buzz_commit_log_first_lsn Oldest commit-log record kept (older ones are "
           "trimmed).\n# TYPE buzz_commit_log_first_lsn gauge\nbuzz_commit_log_first_lsn "
        + std::to_string(d->store ? d->store->commitLogFirstLsn() : 0) + "\n";
    if (d->store) {
        const auto groups = d->store->groupCommitStats();
        out += "# HELP buzz_commit_groups_total Writer transactions committed for queued ingests "
               "(group commit).\n# TYPE buzz_commit_groups_total counter\nbuzz_commit_groups_total "
            + std::to_string(groups.groups) + "\n";
        out += "# HELP buzz_commit_group_members_total Ingests run inside those transactions.\n"
               "# TYPE buzz_commit_group_members_total counter\nbuzz_commit_group_members_total "
            + std::to_string(groups.members) + "\n";
    }
    if (d->search)
        out += d->search->metricsText();
    if (d->tier)
        out += d->tier->metricsText();
    if (d->fanout)
        out += d->fanout->metricsText();
    return out;
}

} // namespace buzz::relay
