#pragma once

// Reusable relay fixture for network-level tests: a RelayHost (engine + server) in-process on
// 127.0.0.1:0 with a controllable clock. Pair it with HttpTestClient (NIP-98 signed requests) and
// WsTestClient (NIP-42, frame collection). Link target: buzz_relay_testkit.
//
//     RelayTestFixture relay;                      // starts; QVERIFY(relay.isListening())
//     TestIdentity alice;
//     HttpTestClient http(relay, &alice.key);
//     auto reply = http.postEvent(alice.sign(9007, relay.now(), {{"h", channel}, {"name", "x"}}));
//     WsTestClient ws(relay.wsUrl());
//     QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));

#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "relay/RelayHost.h"

#include <QString>
#include <QUrl>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace buzz::relay::test {

// A signing identity with one-line event construction.
struct TestIdentity
{
    nostr::SecretKey key = nostr::SecretKey::generate();
    const std::string &pubkey() const { return key.publicKeyHex(); }
    nostr::Event sign(int kind, std::int64_t createdAt, nostr::Tags tags = {},
                      std::string content = {}) const;
};

// A fresh lower-case UUID v4 (channel ids).
std::string newChannelId();

class RelayTestFixture
{
public:
    // Fixed start time so tests are reproducible; advance with setNow()/advance().
    static constexpr std::int64_t kStart = 1'790'000'000;

    struct Options
    {
        std::optional<std::string> dataDir; // nullopt = in memory
        std::vector<std::pair<std::string, std::string>> communities; // extra Host → community
        bool devPubkeyHeader = false;
        bool requireRelayMembership = false; // NIP-43 gate; the relay's own key always passes
        std::vector<std::string> relayMembers; // 64-hex pubkeys admitted by the gate
        std::string relayUrl; // empty = ws://127.0.0.1:<port>
        bool systemClock = false; // true: wall clock instead of the fixed test clock
        bool autoStart = true;
        int pingIntervalMs = 30000; // liveness pings (docs/buzz-protocol.md §WebSocket limits)
        int maxConnections = 10000;
        HttpLimits httpLimits; // body/head sizes and HTTP timeouts
        std::size_t maxOutboundBytes = OutboundQueue::kDefaultMaxBytes; // per WebSocket
        std::size_t maxRelayOutboundBytes = OutboundBudget::kDefaultLimitBytes; // all clients
        // PostgreSQL instead of dataDir (benches; test suites get theirs from PgTestCluster):
        // the writer, its standby as the read replica, and the replica read budget.
        std::string databaseUrl;
        std::string readDatabaseUrl;
        std::int64_t readBudgetMs = 0;
    };

    RelayTestFixture();
    explicit RelayTestFixture(Options options);
    ~RelayTestFixture();

    bool start();
    bool isListening() const { return m_host->isListening(); }

    RelayEngine &engine() { return m_host->engine(); }
    RelayServer &server() { return m_host->server(); }
    quint16 port() const { return m_host->port(); }
    std::string relayUrl() const { return m_host->url().toStdString(); } // ws://127.0.0.1:<port>
    QUrl wsUrl() const { return QUrl(m_host->url()); }
    QUrl httpUrl(const QString &path = QStringLiteral("/")) const;
    const std::string &relayPublicKey() const { return m_relayPublicKey; }

    std::int64_t now() const;
    void setNow(std::int64_t now) { m_now = now; }
    void advance(std::int64_t seconds) { m_now += seconds; }

    // Creates an open channel owned by `owner` over the engine directly (kind 9007); returns its
    // id.
    std::string createChannel(const TestIdentity &owner, const std::string &name = "test",
                              const std::string &visibility = "open",
                              const std::string &community = RelayServer::kDefaultCommunity);

private:
    Options m_options;
    std::atomic<std::int64_t> m_now {kStart};
    std::string m_relayPublicKey;
    std::unique_ptr<RelayHost> m_host;
};

} // namespace buzz::relay::test
