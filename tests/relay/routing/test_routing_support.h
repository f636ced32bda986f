#pragma once

// A relay engine with replicas on a manual clock: heartbeats and replay happen only when a test
// says so, so every routing situation is built deterministically and nothing sleeps. On a
// PostgreSQL run (BUZZ_TEST_STORE=postgres) the replica is the real streaming standby: a pause is
// pg_wal_replay_pause(), and replaying means waiting (bounded) for its replay position to reach
// the primary's — unless it is paused, then it replays nothing, as a paused SQLite replica.

#include "test_engine_support.h"

#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"
#include "relay/replication/RelayClock.h"
#include "relay/replication/postgres/PgStandbySet.h"
#include "relay/replication/sqlite/ReplicaSet.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace routingtest {

using namespace buzz;
using namespace buzz::relay;

// A signing identity (the engine tests' one: key, pubkey, sign, request contexts).
using Identity = enginetest::Identity;

struct HarnessOptions
{
    int replicas = 1;
    std::int64_t budgetMs = 1000;
    std::int64_t lagMs = 0;
    int poolSize = 4;
    std::chrono::milliseconds statementTimeout {2000}; // a replica statement's limit
    std::optional<std::string> dataDir; // nullopt: in memory
    store::CommitLogRetention commitLog;
};

class RoutingHarness
{
public:
    static constexpr std::int64_t kStartMs = 1'790'000'000'000;

    explicit RoutingHarness(HarnessOptions options = {})
    {
        RelayEngine::Options engineOptions;
        engineOptions.relaySecretKeyHex = std::string(63, '0') + "1";
        engineOptions.replicas = options.replicas;
        engineOptions.replicaLagMs = options.lagMs;
        engineOptions.readBudgetMs = options.budgetMs;
        engineOptions.readPoolSize = options.poolSize;
        engineOptions.readerStatementTimeout = options.statementTimeout;
        engineOptions.relayClock = clock;
        engineOptions.replicationDriver = false;
        engineOptions.dataDir = options.dataDir;
        engineOptions.commitLogRetention = options.commitLog;
        pgUrls = test::PgTestCluster::freshStore();
        if (const auto &pg = pgUrls) {
            engineOptions.databaseUrl = pg->writer;
            // One standby, however many replicas were asked for; none when none were.
            if (options.replicas > 0)
                engineOptions.readDatabaseUrl = pg->standby;
            engineOptions.replicas = 0;
        }
        engine = std::make_unique<RelayEngine>(std::move(engineOptions));
    }

    bool onPostgres() const { return engine->replicaSet() == nullptr; }

    // The PostgreSQL run's writer and standby URLs (this process's schema); nullopt on SQLite.
    std::optional<test::PgUrls> pgUrls;
    std::shared_ptr<replication::RelayClock> clock = replication::RelayClock::manual(kStartMs);
    std::unique_ptr<RelayEngine> engine;
    Identity owner;

    replication::ReplicaTier &replicas() { return *engine->replicaTier(); }
    replication::ReadReplica &replica(int index = 0) { return replicas().replicaAt(index); }
    // The simulated SQLite replicas themselves (suites that test the commit log, SQLite only).
    replication::ReplicaSet &sqliteReplicas() { return *engine->replicaSet(); }
    replication::Replica &sqliteReplica(int index = 0) { return sqliteReplicas().replica(index); }
    std::int64_t nowSec() const { return clock->nowSec(); }
    void advanceMs(std::int64_t ms) { clock->advanceMs(ms); }
    // Replay: SQLite replicas apply what their lag allows; the standby, unless paused or delayed,
    // catches up with the primary (it replays on its own, in WAL order) and says where it is. A
    // delayed standby (recovery_min_apply_delay) applies on the server's real clock, which no
    // test clock drives: it is only asked where it is (wait for it with waitCaughtUp).
    void replay()
    {
        if (!onPostgres()) {
            engine->replicaSet()->pump();
            return;
        }
        auto &standbys = static_cast<replication::PgStandbySet &>(replicas());
        if (!replica().paused() && replica().lagMs() == 0)
            QVERIFY2(standbys.waitCaughtUp(std::chrono::seconds(30)),
                     "the standby did not catch up within 30 s");
        standbys.refresh();
    }
    // One heartbeat, then replay whatever each replica's lag allows.
    void beatAndReplay()
    {
        replicas().heartbeat();
        replay();
    }
    // A replica's apply lag on the relay clock (SQLite only: the standby's lag runs on real time,
    // recovery_min_apply_delay, which a manual clock cannot drive).
    void setLagMs(int index, std::int64_t lagMs)
    {
        if (!onPostgres())
            replica(index).setLagMs(lagMs);
    }

    IngestResult submit(const Identity &who, const nostr::Event &event)
    {
        return engine->ingest(event, RequestContext {"local", who.pubkey(), Transport::Http});
    }
    std::string createChannel(const std::string &uuid)
    {
        const auto result = submit(
            owner,
            owner.sign(9007, nowSec(),
                       {{"h", uuid}, {"name", "c-" + uuid.substr(0, 4)}, {"visibility", "open"}}));
        return result.accepted() ? uuid : std::string();
    }
    // A channel message; returns its id (empty when refused).
    std::string post(const std::string &channel, std::int64_t createdAt, const std::string &content)
    {
        const auto event = owner.sign(9, createdAt, {{"h", channel}}, content);
        return submit(owner, event).accepted() ? event.id : std::string();
    }
    // A canvas revision (kind 40100) of `channel` on top of `expected` (empty: the first one);
    // returns its id (empty when refused).
    std::string saveCanvas(const std::string &channel, std::int64_t createdAt,
                           const std::string &content, const std::string &expected = {})
    {
        const auto event = owner.sign(
            40100, createdAt,
            {{"h", channel}, {"expected-revision", expected.empty() ? "none" : expected}}, content);
        return submit(owner, event).accepted() ? event.id : std::string();
    }
    std::string reply(const std::string &channel, const std::string &root, std::int64_t createdAt,
                      const std::string &content)
    {
        const auto event =
            owner.sign(9, createdAt, {{"h", channel}, {"e", root, "", "root"}}, content);
        return submit(owner, event).accepted() ? event.id : std::string();
    }
    bool remove(const std::string &id)
    {
        return submit(owner, owner.sign(5, nowSec(), {{"e", id}})).accepted();
    }
    // A row only the replica has (unphysical on purpose): proves a page came from the replica.
    std::string injectReplicaMarker(const std::string &channel, std::int64_t createdAt,
                                    int replicaIndex = 0)
    {
        const auto event = owner.sign(9, createdAt, {{"h", channel}}, "replica-marker");
        nlohmann::json op = {{"op", "event"},          {"community", "local"},
                             {"json", event.toJson()}, {"channel", channel},
                             {"d_tag", nullptr},       {"received_at", createdAt}};
        nlohmann::json change = {{"community", "local"}, {"ops", nlohmann::json::array({op})}};
        auto &target = engine->replicaSet()->replica(replicaIndex); // SQLite only
        replication::CommitRecord record {target.appliedLsn(), clock->nowMs(), change.dump()};
        return target.apply({&record, 1}) ? event.id : std::string();
    }

    QueryResult read(const std::string &filtersJson, ReadPath path = ReadPath::BridgeQuery)
    {
        auto filters = nostr::Filter::listFromJson(filtersJson);
        if (!filters)
            return QueryResult {QueryResult::Status::BadRequest, filters.error()};
        return engine->query(filters.value(),
                             RequestContext {"local", owner.pubkey(), Transport::Http}, path);
    }
    QueryResult count(const std::string &filtersJson, ReadPath path = ReadPath::BridgeCount)
    {
        auto filters = nostr::Filter::listFromJson(filtersJson);
        if (!filters)
            return QueryResult {QueryResult::Status::BadRequest, filters.error()};
        return engine->count(filters.value(),
                             RequestContext {"local", owner.pubkey(), Transport::Http}, path);
    }
    static std::vector<std::string> ids(const QueryResult &result)
    {
        std::vector<std::string> out;
        for (const auto &stored : result.events)
            out.push_back(stored.event.id);
        return out;
    }
    static bool contains(const QueryResult &result, const std::string &id)
    {
        for (const auto &stored : result.events)
            if (stored.event.id == id)
                return true;
        return false;
    }
    std::uint64_t decisions(ReadPath path, RouteDecisionLabel label, RouteReason reason)
    {
        return replicas().metrics().count(path, label, reason);
    }
};

inline std::string channelFilter(const std::string &channel, int limit)
{
    return "[{\"kinds\":[9],\"#h\":[\"" + channel + "\"],\"limit\":" + std::to_string(limit) + "}]";
}
inline std::string channelPage(const std::string &channel, int limit, std::int64_t until,
                               const std::string &beforeId)
{
    return "[{\"kinds\":[9],\"#h\":[\"" + channel + "\"],\"limit\":" + std::to_string(limit)
        + ",\"until\":" + std::to_string(until) + ",\"before_id\":\"" + beforeId + "\"}]";
}
inline std::string threadPage(const std::string &channel, const std::string &root, int limit,
                              std::optional<std::int64_t> since = std::nullopt,
                              const std::string &afterId = {})
{
    std::string filter = "[{\"kinds\":[9],\"#h\":[\"" + channel + "\"],\"#e\":[\"" + root
        + "\"],\"depth_limit\":3,\"limit\":" + std::to_string(limit);
    if (since)
        filter += ",\"since\":" + std::to_string(*since);
    if (!afterId.empty())
        filter += ",\"after_id\":\"" + afterId + "\"";
    return filter + "}]";
}

} // namespace routingtest
