#pragma once

// Shared helpers of the search tests: a writer database written straight through the store (any
// created_at, any community), optionally with replicas on a manual clock, and signed events.

#include "PgTestCluster.h"

#include "net/nostr/Event.h"
#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"
#include "relay/replication/sqlite/ReplicaSet.h"
#include "relay/routing/WriterOnlyRouter.h"
#include "relay/search/EventPair.h"
#include "relay/store/postgres/PgStore.h"
#include "relay/store/sqlite/SearchIndexer.h"
#include "relay/store/sqlite/SqliteRowWriter.h"
#include "relay/store/sqlite/SqliteStore.h"

#include <QDateTime>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace searchtest {

using namespace buzz;
using namespace buzz::relay;

inline constexpr std::int64_t kJan2026 = 1'767'225'600; // 2026-01-01T00:00:00Z
inline constexpr std::int64_t kJun2026 = 1'780'272'000; // 2026-06-01T00:00:00Z
inline constexpr std::int64_t kNov2026 = 1'793'491'200; // 2026-11-01T00:00:00Z
inline const std::string kCommunity = "local";
inline const std::string kChannel = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";

// Counts every read routed to the store, so a test can prove that none was taken.
class CountingRouter : public routing::ReadRouter
{
public:
    explicit CountingRouter(store::Store &database)
        : m_inner(database)
    { }
    routing::ReadLease route(const ReadRequest &request) override
    {
        ++reads;
        return m_inner.route(request);
    }
    std::atomic<int> reads {0};

private:
    routing::WriterOnlyRouter m_inner;
};

class StoreHarness
{
public:
    StoreHarness()
    {
        std::string error;
        // A PostgreSQL run (BUZZ_TEST_STORE=postgres): the PostgreSQL store on a fresh schema.
        if (auto pg = buzz::relay::test::PgTestCluster::freshStore()) {
            postgres = store::PgStore::open(pg->writer, QDateTime::currentSecsSinceEpoch(), error);
            if (postgres)
                router = std::make_unique<CountingRouter>(*postgres);
            return;
        }
        database = store::SqliteStore::open(std::nullopt, error,
                                            {std::make_shared<store::SearchIndexer>()});
        if (database)
            router = std::make_unique<CountingRouter>(*database);
    }

    bool isOpen() const { return database || postgres; }
    store::Store &writer() { return database ? static_cast<store::Store &>(*database) : *postgres; }

    nostr::Event sign(std::int64_t createdAt, std::string content, int kind = 9,
                      const std::string &channel = kChannel) const
    {
        nostr::Event event;
        event.kind = kind;
        event.createdAt = createdAt;
        if (!channel.empty())
            event.tags = {{"h", channel}};
        event.content = std::move(content);
        key.signEvent(event);
        return event;
    }

    // Inserts a signed event through the store (one commit, one commit-log record).
    nostr::Event insert(std::int64_t createdAt, std::string content, int kind = 9,
                        const std::string &community = kCommunity,
                        const std::string &channel = kChannel)
    {
        nostr::Event event = sign(createdAt, std::move(content), kind, channel);
        insertSigned(event, community, channel);
        return event;
    }

    bool insertSigned(const nostr::Event &event, const std::string &community = kCommunity,
                      const std::string &channel = kChannel)
    {
        StoredEvent stored {event, event.toJson(), community,
                            channel.empty() ? std::nullopt : std::optional<std::string>(channel)};
        const std::int64_t nowMs = ++m_nowMs;
        return writer().writeInGroup(community, nowMs, [&](store::WriteTransaction &tx) {
            if (tx.rows().insertEvent(stored, std::nullopt, event.createdAt, std::nullopt)
                == store::EventRows::InsertOutcome::Inserted)
                tx.commit(nowMs);
        }) == store::Store::GroupOutcome::Committed;
    }

    bool softDelete(const nostr::Event &event, const std::string &community = kCommunity)
    {
        const std::int64_t nowMs = ++m_nowMs;
        return writer().writeInGroup(community, nowMs, [&](store::WriteTransaction &tx) {
            if (tx.rows().softDelete(community, event.id, 1))
                tx.commit(nowMs);
        }) == store::Store::GroupOutcome::Committed;
    }

    static search::EventPair pairOf(const nostr::Event &event)
    {
        return {event.id, event.createdAt};
    }

    nostr::SecretKey key = nostr::SecretKey::generate();
    std::unique_ptr<store::SqliteStore> database; // SQLite runs
    std::unique_ptr<store::PgStore> postgres; // PostgreSQL runs
    std::unique_ptr<CountingRouter> router; // writer only, counting

private:
    std::int64_t m_nowMs = 1'000;
};

inline std::vector<std::string> idsOf(const std::vector<StoredEvent> &events)
{
    std::vector<std::string> ids;
    for (const auto &stored : events)
        ids.push_back(stored.event.id);
    return ids;
}

// Parsed filters (empty when the JSON is not a filter list).
inline std::vector<nostr::Filter> filters(const std::string &json)
{
    auto parsed = nostr::Filter::listFromJson(json);
    return parsed ? parsed.value() : std::vector<nostr::Filter> {};
}

} // namespace searchtest
