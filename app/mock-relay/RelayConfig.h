#pragma once

#include "net/nostr/Expected.h"
#include "relay/model/OutboundBudget.h"
#include "relay/server/HttpRequestGuard.h"

#include <QProcessEnvironment>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace buzz::relay {

// Options of buzz-mock-relay. Each option can also come from an environment variable named like
// the real relay's where one exists; the command line wins over the environment. This is the only
// place the relay's settings are read from the environment: the relay library takes values.
inline constexpr int kMinHttpTimeoutMs = 100;
inline constexpr int kMaxHttpTimeoutMs = 30000;
// --max-outbound-mb: at least two of the largest answers (32 MiB each) fit.
inline constexpr int kMinOutboundMiB = 64;
inline constexpr int kMaxOutboundMiB = 1024 * 1024;

struct RelayConfig
{
    QString listen = QStringLiteral("127.0.0.1:3000"); // --listen / BUZZ_BIND_ADDR
    // --data / BUZZ_RELAY_DATA_DIR; none = in memory. BUZZ_DATA_DIR alone is an error: it also
    // named the CLI's identity folder.
    std::optional<QString> dataDir;
    // --database-url / DATABASE_URL: the writer on PostgreSQL 15 (a libpq URL) instead of SQLite;
    // --read-database-url / READ_DATABASE_URL: its streaming hot standby as the read replica.
    std::string databaseUrl;
    std::string readDatabaseUrl;
    std::optional<std::string> relayUrl; // --relay-url / RELAY_URL; none = ws://<listen>
    std::vector<std::pair<std::string, std::string>> communities; // --community HOST=NAME
    bool devPubkeyHeader = false; // --dev-pubkey-header / BUZZ_DEV_PUBKEY_HEADER=1
    // --require-relay-membership / BUZZ_REQUIRE_RELAY_MEMBERSHIP=true (NIP-43 gate)
    bool requireRelayMembership = false;
    // --relay-member (repeatable) / BUZZ_RELAY_MEMBERS (comma-separated); 64 lower-case hex each
    std::vector<std::string> relayMembers;
    std::optional<std::string> seed; // --seed demo
    std::optional<std::string> relayKey; // --relay-key / BUZZ_RELAY_PRIVATE_KEY (hex or nsec)
    std::optional<std::string> adminToken; // --admin-token / BUZZ_ADMIN_TOKEN
    int replicas = 0; // --replicas
    int replicaLagMs = 0; // --replica-lag-ms
    // --read-max-age-ms / BUZZ_REPLICA_READ_MAX_AGE_MS: replica read budget, 0 = off (every read
    // on the writer, whatever --replicas says); clamped to 30 000
    std::int64_t readBudgetMs = 0;
    QString readBudgetSource; // the option or variable the budget came from; empty = default
    int readPoolSize = 4; // BUZZ_DB_READ_POOL_SIZE: reader connections per replica, 1..256
    int maxConnections = 10000; // --max-connections / BUZZ_MAX_CONNECTIONS
    // --max-outbound-mb / BUZZ_MAX_OUTBOUND_MB: bytes held for all clients together (answers
    // being assembled, bytes waiting unread), in MiB, kMinOutboundMiB..kMaxOutboundMiB
    int maxOutboundMiB = int(OutboundBudget::kDefaultLimitBytes / (1024 * 1024));
    // HTTP head/body/idle timeouts: --http-{head,body,idle}-timeout-ms /
    // BUZZ_HTTP_{HEAD,BODY,IDLE}_TIMEOUT_MS, each kMinHttpTimeoutMs..kMaxHttpTimeoutMs
    HttpLimits httpLimits;

    enum class Action { Run, ShowHelp, ShowVersion };
    struct Parsed;

    // `arguments` includes the program name first, as QCoreApplication::arguments().
    // Errors are one line, suitable for stderr (exit code 1).
    static Expected<Parsed> fromArguments(const QStringList &arguments,
                                          const QProcessEnvironment &environment);
    static QString helpText();

    // One line for stderr at start: whether replicas serve any read, with which budget and from
    // where it came, so `--replicas N` without a budget is not mistaken for a routed setup.
    QString routingSummary() const;
};

struct RelayConfig::Parsed
{
    Action action = Action::Run;
    RelayConfig config;
};

} // namespace buzz::relay
