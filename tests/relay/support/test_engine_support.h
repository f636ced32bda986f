#pragma once

// Shared helpers for the engine-level tests: an engine on a controllable clock, signing identities
// and one-line builders for the events the tests submit.

#include "PgTestCluster.h"

#include "net/nostr/Filter.h"
#include "net/nostr/Keys.h"
#include "relay/RelayEngine.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace enginetest {

using namespace buzz;
using namespace buzz::relay;

struct Identity
{
    nostr::SecretKey key = nostr::SecretKey::generate();
    const std::string &pubkey() const { return key.publicKeyHex(); }
    RequestContext http(const std::string &community = "local") const
    {
        return RequestContext {community, pubkey(), Transport::Http};
    }
    RequestContext ws(const std::string &community = "local") const
    {
        return RequestContext {community, pubkey(), Transport::WebSocket};
    }
    nostr::Event sign(int kind, std::int64_t createdAt, nostr::Tags tags,
                      std::string content = {}) const
    {
        return key.signedEvent(kind, createdAt, std::move(tags), std::move(content));
    }
};

class EngineHarness
{
public:
    static constexpr std::int64_t kStart = 1'790'000'000;

    explicit EngineHarness(std::optional<std::string> dataDir = std::nullopt)
    {
        RelayEngine::Options options;
        options.dataDir = std::move(dataDir);
        // A PostgreSQL run (BUZZ_TEST_STORE=postgres): a fresh schema instead of SQLite.
        if (auto pg = buzz::relay::test::PgTestCluster::freshStore()) {
            options.databaseUrl = pg->writer;
            options.dataDir.reset();
        }
        options.relaySecretKeyHex = std::string(63, '0') + "1";
        options.clock = [this] {
            return now.load();
        };
        engine = std::make_unique<RelayEngine>(std::move(options));
    }

    std::atomic<std::int64_t> now {kStart};
    std::unique_ptr<RelayEngine> engine;

    IngestResult submit(const Identity &who, const nostr::Event &event,
                        Transport transport = Transport::Http,
                        const std::string &community = "local")
    {
        return engine->ingest(event, RequestContext {community, who.pubkey(), transport});
    }

    // Creates a channel owned by `owner`; returns its UUID.
    std::string createChannel(const Identity &owner, const std::string &uuid,
                              const std::string &visibility = "open",
                              const std::string &community = "local")
    {
        const auto result = submit(
            owner,
            owner.sign(
                9007, now,
                {{"h", uuid}, {"name", "chan-" + uuid.substr(0, 4)}, {"visibility", visibility}}),
            Transport::Http, community);
        return result.accepted() ? uuid : std::string();
    }

    std::vector<StoredEvent> query(const Identity &who, const std::string &filterJson,
                                   ReadPath path = ReadPath::BridgeQuery,
                                   const std::string &community = "local")
    {
        return runQuery(who, filterJson, path, community).events;
    }

    QueryResult runQuery(const Identity &who, const std::string &filtersJson,
                         ReadPath path = ReadPath::BridgeQuery,
                         const std::string &community = "local")
    {
        auto filters = nostr::Filter::listFromJson(filtersJson);
        if (!filters)
            return QueryResult {QueryResult::Status::BadRequest, filters.error()};
        return engine->query(filters.value(),
                             RequestContext {community, who.pubkey(), Transport::Http}, path);
    }

    std::optional<std::string> canvasHead(const Identity &who, const std::string &channel)
    {
        // (No raw strings in test sources: moc 6.4 mis-lexes some of them and drops the test
        // class.)
        const auto events =
            query(who, "[{\"kinds\":[40100],\"#h\":[\"" + channel + "\"],\"limit\":1}]");
        if (events.empty())
            return std::nullopt;
        return events.front().event.id;
    }
};

inline const char *kChannelA = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";
inline const char *kChannelB = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d02";

} // namespace enginetest
