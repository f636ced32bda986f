#include "app/mock-relay/RelayConfig.h"

#include "net/nostr/Hex.h"
#include "net/nostr/Nip19.h"
#include "relay/model/RouteTypes.h"
#include "relay/server/RelayLimits.h"

#include <QCommandLineParser>

#include <array>
#include <charconv>
#include <string_view>
#include <tuple>

namespace buzz::relay {

namespace {

struct OptionSet
{
    QCommandLineOption help {{QStringLiteral("h"), QStringLiteral("help")},
                             QStringLiteral("Show this help.")};
    QCommandLineOption version {QStringLiteral("version"), QStringLiteral("Print the version.")};
    QCommandLineOption listen {
        QStringLiteral("listen"),
        QStringLiteral("Listen on HOST:PORT; port 0 = any free port (BUZZ_BIND_ADDR; "
                       "default 127.0.0.1:3000)."),
        QStringLiteral("HOST:PORT")};
    QCommandLineOption data {
        QStringLiteral("data"),
        QStringLiteral("Keep SQLite files in DIR (BUZZ_RELAY_DATA_DIR); absent = in memory."),
        QStringLiteral("DIR")};
    QCommandLineOption databaseUrl {
        QStringLiteral("database-url"),
        QStringLiteral("Keep the relay's data in PostgreSQL 15 at URL (a libpq URL, "
                       "postgresql://user@host:port/db; DATABASE_URL) instead of SQLite."),
        QStringLiteral("URL")};
    QCommandLineOption readDatabaseUrl {
        QStringLiteral("read-database-url"),
        QStringLiteral("With --database-url: a streaming hot standby of that server, the read "
                       "replica routed reads may use (READ_DATABASE_URL); needs "
                       "--read-max-age-ms to serve any."),
        QStringLiteral("URL")};
    QCommandLineOption relayUrl {
        QStringLiteral("relay-url"),
        QStringLiteral("URL that NIP-42 `relay` and NIP-98 `u` must name (RELAY_URL; "
                       "default ws://<listen address>)."),
        QStringLiteral("URL")};
    QCommandLineOption community {
        QStringLiteral("community"),
        QStringLiteral("Map a Host to a community (repeatable); loopback maps to "
                       "`local` unless given."),
        QStringLiteral("HOST=NAME")};
    QCommandLineOption devPubkeyHeader {
        QStringLiteral("dev-pubkey-header"),
        QStringLiteral("Accept the unsigned X-Pubkey dev header on HTTP "
                       "(BUZZ_DEV_PUBKEY_HEADER=1).")};
    QCommandLineOption requireRelayMembership {
        QStringLiteral("require-relay-membership"),
        QStringLiteral("Admit only relay members (and the relay's own key) to WebSocket AUTH "
                       "and the HTTP bridge (BUZZ_REQUIRE_RELAY_MEMBERSHIP=true).")};
    QCommandLineOption relayMember {
        QStringLiteral("relay-member"),
        QStringLiteral("A relay member's pubkey, 64 hex or npub (repeatable; "
                       "BUZZ_RELAY_MEMBERS, comma-separated)."),
        QStringLiteral("PUBKEY")};
    QCommandLineOption seed {QStringLiteral("seed"), QStringLiteral("Seed data set: demo."),
                             QStringLiteral("NAME")};
    QCommandLineOption relayKey {
        QStringLiteral("relay-key"),
        QStringLiteral("Relay secret key, hex or nsec (BUZZ_RELAY_PRIVATE_KEY); "
                       "default: generated."),
        QStringLiteral("KEY")};
    QCommandLineOption adminToken {QStringLiteral("admin-token"),
                                   QStringLiteral("Bearer token for the /admin fault-injection API "
                                                  "(BUZZ_ADMIN_TOKEN)."),
                                   QStringLiteral("TOKEN")};
    QCommandLineOption replicas {QStringLiteral("replicas"),
                                 QStringLiteral("Number of read replicas."), QStringLiteral("N")};
    QCommandLineOption replicaLagMs {QStringLiteral("replica-lag-ms"),
                                     QStringLiteral("Replica apply lag in milliseconds."),
                                     QStringLiteral("MS")};
    QCommandLineOption readMaxAgeMs {
        QStringLiteral("read-max-age-ms"),
        QStringLiteral("Let replicas serve display reads whose data is at most MS old "
                       "(BUZZ_REPLICA_READ_MAX_AGE_MS); 0, the default, sends every read to the "
                       "writer, so --replicas alone routes nothing to them. Clamped to 30000."),
        QStringLiteral("MS")};
    QCommandLineOption maxConnections {
        QStringLiteral("max-connections"),
        QStringLiteral("WebSocket connections accepted at once; more are closed silently "
                       "(BUZZ_MAX_CONNECTIONS, default 10000)."),
        QStringLiteral("N")};
    QCommandLineOption maxOutboundMb {
        QStringLiteral("max-outbound-mb"),
        QStringLiteral("Memory the relay holds for all clients together: answers being "
                       "assembled and bytes sent but not yet read. Past it, answers over 1 MiB "
                       "are refused (retry later) and the connections holding the most unread "
                       "bytes are cut (BUZZ_MAX_OUTBOUND_MB, 64..1048576, default 256)."),
        QStringLiteral("MIB")};
    QCommandLineOption httpHeadTimeoutMs {
        QStringLiteral("http-head-timeout-ms"),
        QStringLiteral("Time an HTTP request head may take from its first byte to its end; "
                       "then 408 (BUZZ_HTTP_HEAD_TIMEOUT_MS, 100..30000, default 10000)."),
        QStringLiteral("MS")};
    QCommandLineOption httpBodyTimeoutMs {
        QStringLiteral("http-body-timeout-ms"),
        QStringLiteral("Time an HTTP request body may take after its head; then 408 "
                       "(BUZZ_HTTP_BODY_TIMEOUT_MS, 100..30000, default 30000)."),
        QStringLiteral("MS")};
    QCommandLineOption httpIdleTimeoutMs {
        QStringLiteral("http-idle-timeout-ms"),
        QStringLiteral("An HTTP connection with no request in progress and nothing to send is "
                       "closed after MS (BUZZ_HTTP_IDLE_TIMEOUT_MS, 100..30000, default 30000)."),
        QStringLiteral("MS")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.addOptions({help,
                           version,
                           listen,
                           data,
                           databaseUrl,
                           readDatabaseUrl,
                           relayUrl,
                           community,
                           devPubkeyHeader,
                           requireRelayMembership,
                           relayMember,
                           seed,
                           relayKey,
                           adminToken,
                           replicas,
                           replicaLagMs,
                           readMaxAgeMs,
                           maxConnections,
                           maxOutboundMb,
                           httpHeadTimeoutMs,
                           httpBodyTimeoutMs,
                           httpIdleTimeoutMs});
    }
};

// BUZZ_DATA_DIR named the CLI's identity folder to buzz-canvas-cli and the database folder to
// the relay, so a relay started in the CLI's shell wrote its SQLite files next to the key. Read
// silently it would still do that; an error names the two variables that replaced it.
constexpr const char *kRetiredDataDirMessage =
    "BUZZ_DATA_DIR is no longer read (it named buzz-canvas-cli's identity folder too): set "
    "BUZZ_RELAY_DATA_DIR or pass --data for the relay's SQLite files, and BUZZ_CLI_DIR for the "
    "CLI's identity folder";

std::optional<QString> fromOptionOrEnvironment(const QCommandLineParser &parser,
                                               const QCommandLineOption &option,
                                               const QProcessEnvironment &environment,
                                               const QString &variable)
{
    if (parser.isSet(option))
        return parser.value(option);
    const QString value = environment.value(variable);
    if (!value.isEmpty())
        return value;
    return std::nullopt;
}

bool isTruthy(const QString &value)
{
    const QString lower = value.trimmed().toLower();
    return lower == QLatin1String("1") || lower == QLatin1String("true")
        || lower == QLatin1String("yes");
}

Expected<int> parseNonNegative(const QString &value, const QString &option)
{
    bool ok = false;
    const int number = value.toInt(&ok);
    if (!ok || number < 0)
        return Unexpected("--" + option.toStdString() + " expects a non-negative integer, got "
                          + value.toStdString());
    return number;
}

// 64 hex (either case) or npub → 64 lower-case hex. `source` names the option or variable.
Expected<std::string> parsePubkey(const QString &value, const QString &source)
{
    const std::string text = value.trimmed().toStdString();
    const auto invalid = [&] {
        return Unexpected(source.toStdString() + " expects a 64-hex pubkey or npub, got " + text);
    };
    if (text.rfind("nsec1", 0) == 0) // a secret key given by mistake must not reach stderr
        return Unexpected(source.toStdString()
                          + " expects a public key (64-hex or npub), got a secret key (nsec)");
    if (text.rfind("npub1", 0) == 0) {
        auto decoded = nostr::nip19::decodeNpub(text);
        if (!decoded)
            return invalid();
        return *decoded;
    }
    std::array<std::uint8_t, 32> key {};
    if (text.size() != 64 || !nostr::fromHex(text, key.data(), key.size()))
        return invalid();
    return nostr::toHex(key.data(), key.size());
}

// Command-line members replace the environment's list, as every other option does.
Expected<std::vector<std::string>> relayMembersFrom(const QCommandLineParser &parser,
                                                    const QCommandLineOption &option,
                                                    const QProcessEnvironment &environment)
{
    QStringList values;
    QString source;
    if (parser.isSet(option)) {
        values = parser.values(option);
        source = QStringLiteral("--relay-member");
    } else {
        values = environment.value(QStringLiteral("BUZZ_RELAY_MEMBERS"))
                     .split(QLatin1Char(','), Qt::SkipEmptyParts);
        source = QStringLiteral("BUZZ_RELAY_MEMBERS");
    }
    std::vector<std::string> members;
    for (const QString &value : values) {
        if (value.trimmed().isEmpty() && source == QLatin1String("BUZZ_RELAY_MEMBERS"))
            continue; // "a, ,b" and a trailing comma are harmless in a variable
        auto pubkey = parsePubkey(value, source);
        if (!pubkey)
            return Unexpected(pubkey.error());
        members.push_back(std::move(*pubkey));
    }
    return members;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// The replica tier's settings, named like the real relay's variables; the read budget also has
// a command-line form, which wins.
std::optional<std::string> applyReplicaSettings(RelayConfig &config,
                                                const QCommandLineParser &parser,
                                                const QCommandLineOption &readMaxAgeMs,
                                                const QProcessEnvironment &environment)
{
    if (!environment.value(QStringLiteral("BUZZ_REPLICA_HEAD_MAX_AGE_SECS")).isEmpty())
        return "BUZZ_REPLICA_HEAD_MAX_AGE_SECS is no longer supported; set "
               "BUZZ_REPLICA_READ_MAX_AGE_MS (milliseconds) instead";
    const bool fromOption = parser.isSet(readMaxAgeMs);
    const QString budget = fromOption
        ? parser.value(readMaxAgeMs)
        : environment.value(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"));
    if (fromOption || !budget.isEmpty()) {
        const auto value = parseInteger(budget.toStdString());
        if (!value || *value < 0)
            return (fromOption ? std::string("--read-max-age-ms")
                               : std::string("BUZZ_REPLICA_READ_MAX_AGE_MS"))
                + " must be a non-negative integer (got " + budget.toStdString() + ")";
        config.readBudgetMs = clampReadBudgetMs(*value);
        config.readBudgetSource = fromOption ? QStringLiteral("--read-max-age-ms")
                                             : QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS");
    }
    if (const QString pool = environment.value(QStringLiteral("BUZZ_DB_READ_POOL_SIZE"));
        !pool.isEmpty()) {
        const auto value = parseInteger(pool.toStdString());
        if (!value || *value < 1 || *value > 256)
            return "BUZZ_DB_READ_POOL_SIZE must be an integer in 1..256 (got " + pool.toStdString()
                + ")";
        config.readPoolSize = static_cast<int>(*value);
    }
    return std::nullopt;
}

// An HTTP timeout: at least 100 ms (a shorter one would cut clients on a loaded machine) and at
// most 30 s (issue 16: a half-sent request may hold a descriptor no longer than that).
std::optional<std::string> applyHttpTimeout(int &target, const QCommandLineParser &parser,
                                            const QCommandLineOption &option,
                                            const QProcessEnvironment &environment,
                                            const QString &variable)
{
    const auto text = fromOptionOrEnvironment(parser, option, environment, variable);
    if (!text)
        return std::nullopt;
    const auto value = parseInteger(text->trimmed().toStdString());
    if (!value || *value < kMinHttpTimeoutMs || *value > kMaxHttpTimeoutMs)
        return (parser.isSet(option) ? "--" + option.names().constFirst().toStdString()
                                     : variable.toStdString())
            + " must be an integer in " + std::to_string(kMinHttpTimeoutMs) + ".."
            + std::to_string(kMaxHttpTimeoutMs) + " (got " + text->toStdString() + ")";
    target = static_cast<int>(*value);
    return std::nullopt;
}

} // namespace

QString RelayConfig::routingSummary() const
{
    const bool postgres = !databaseUrl.empty();
    const bool standby = !readDatabaseUrl.empty();
    const int count = postgres ? (standby ? 1 : 0) : replicas;
    const QString replicaText = standby
        ? QStringLiteral("the PostgreSQL standby (--read-database-url)")
        : replicas == 1 ? QStringLiteral("1 replica (lag %1 ms)").arg(replicaLagMs)
                        : QStringLiteral("%1 replicas (lag %2 ms)").arg(replicas).arg(replicaLagMs);
    const QString addReplicas = postgres ? QStringLiteral("add --read-database-url URL")
                                         : QStringLiteral("add --replicas N");
    if (count == 0) {
        if (readBudgetMs > 0)
            return QStringLiteral("read routing: off (no replicas: the %1 ms budget from %2 has "
                                  "nothing to route to; %3)")
                .arg(readBudgetMs)
                .arg(readBudgetSource, addReplicas);
        return QStringLiteral("read routing: off (no replicas)");
    }
    if (readBudgetMs == 0)
        return QStringLiteral("read routing: off, no budget: every read is served by the writer, "
                              "none by %1; set --read-max-age-ms MS (or "
                              "BUZZ_REPLICA_READ_MAX_AGE_MS) to route display reads to the "
                              "replicas")
            .arg(replicaText);
    QString line = QStringLiteral("read routing: on, budget %1 ms (from %2): display reads may be "
                                  "served by %3; strong reads stay on the writer")
                       .arg(readBudgetMs)
                       .arg(readBudgetSource, replicaText);
    if (!standby && replicaLagMs >= readBudgetMs)
        line += QStringLiteral(" (the lag reaches the budget: reads that need a fresh replica "
                               "fall back to the writer)");
    return line;
}

QString RelayConfig::helpText()
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Local Buzz relay: HTTP bridge and WebSocket on one port."));
    OptionSet options;
    options.addTo(parser);
    QString text = parser.helpText();
    text +=
        QStringLiteral("\nLimits (every bound a client can meet; relay/README.md \"Limits\"):\n");
    for (const RelayLimit &limit : relayLimits()) {
        text += QStringLiteral("  %1: %2 -> %3")
                    .arg(QString::fromStdString(limit.what), QString::fromStdString(limit.value),
                         QString::fromStdString(limit.answer));
        if (!limit.option.empty())
            text += QStringLiteral(" (%1)").arg(QString::fromStdString(limit.option));
        text += QLatin1Char('\n');
    }
    return text;
}

Expected<RelayConfig::Parsed> RelayConfig::fromArguments(const QStringList &arguments,
                                                         const QProcessEnvironment &environment)
{
    QCommandLineParser parser;
    OptionSet options;
    options.addTo(parser);
    if (!parser.parse(arguments))
        return Unexpected(parser.errorText().toStdString());
    if (!parser.positionalArguments().isEmpty())
        return Unexpected("unexpected argument: "
                          + parser.positionalArguments().first().toStdString());

    Parsed parsed;
    if (parser.isSet(options.help)) {
        parsed.action = Action::ShowHelp;
        return parsed;
    }
    if (parser.isSet(options.version)) {
        parsed.action = Action::ShowVersion;
        return parsed;
    }

    RelayConfig &config = parsed.config;
    if (auto listen = fromOptionOrEnvironment(parser, options.listen, environment,
                                              QStringLiteral("BUZZ_BIND_ADDR")))
        config.listen = *listen;
    config.dataDir = fromOptionOrEnvironment(parser, options.data, environment,
                                             QStringLiteral("BUZZ_RELAY_DATA_DIR"));
    if (!config.dataDir && !environment.value(QStringLiteral("BUZZ_DATA_DIR")).isEmpty())
        return Unexpected(std::string(kRetiredDataDirMessage));
    if (auto url = fromOptionOrEnvironment(parser, options.databaseUrl, environment,
                                           QStringLiteral("DATABASE_URL")))
        config.databaseUrl = url->trimmed().toStdString();
    if (auto url = fromOptionOrEnvironment(parser, options.readDatabaseUrl, environment,
                                           QStringLiteral("READ_DATABASE_URL")))
        config.readDatabaseUrl = url->trimmed().toStdString();
    if (!config.readDatabaseUrl.empty() && config.databaseUrl.empty())
        return Unexpected(std::string("--read-database-url (READ_DATABASE_URL) needs "
                                      "--database-url (DATABASE_URL): the standby's primary"));
    if (!config.databaseUrl.empty() && config.dataDir)
        return Unexpected(std::string("--database-url and --data name two stores: PostgreSQL "
                                      "keeps the relay's data, give one of them"));
    if (auto url = fromOptionOrEnvironment(parser, options.relayUrl, environment,
                                           QStringLiteral("RELAY_URL")))
        config.relayUrl = url->trimmed().toStdString();
    for (const QString &mapping : parser.values(options.community)) {
        const qsizetype equals = mapping.indexOf(QLatin1Char('='));
        if (equals <= 0 || equals == mapping.size() - 1)
            return Unexpected("--community expects HOST=NAME, got " + mapping.toStdString());
        config.communities.emplace_back(mapping.left(equals).trimmed().toStdString(),
                                        mapping.mid(equals + 1).trimmed().toStdString());
    }
    config.devPubkeyHeader = parser.isSet(options.devPubkeyHeader)
        || isTruthy(environment.value(QStringLiteral("BUZZ_DEV_PUBKEY_HEADER")));
    config.requireRelayMembership = parser.isSet(options.requireRelayMembership)
        || isTruthy(environment.value(QStringLiteral("BUZZ_REQUIRE_RELAY_MEMBERSHIP")));
    auto members = relayMembersFrom(parser, options.relayMember, environment);
    if (!members)
        return Unexpected(members.error());
    config.relayMembers = std::move(*members);
    if (parser.isSet(options.seed)) {
        const QString seed = parser.value(options.seed);
        if (seed != QLatin1String("demo"))
            return Unexpected("--seed supports only `demo`, got " + seed.toStdString());
        config.seed = seed.toStdString();
    }
    if (auto key = fromOptionOrEnvironment(parser, options.relayKey, environment,
                                           QStringLiteral("BUZZ_RELAY_PRIVATE_KEY")))
        config.relayKey = key->trimmed().toStdString();
    if (auto token = fromOptionOrEnvironment(parser, options.adminToken, environment,
                                             QStringLiteral("BUZZ_ADMIN_TOKEN")))
        config.adminToken = token->toStdString();
    if (parser.isSet(options.replicas)) {
        auto replicas =
            parseNonNegative(parser.value(options.replicas), QStringLiteral("replicas"));
        if (!replicas)
            return Unexpected(replicas.error());
        config.replicas = *replicas;
    }
    if (parser.isSet(options.replicaLagMs)) {
        auto lag =
            parseNonNegative(parser.value(options.replicaLagMs), QStringLiteral("replica-lag-ms"));
        if (!lag)
            return Unexpected(lag.error());
        config.replicaLagMs = *lag;
    }
    if (auto limit = fromOptionOrEnvironment(parser, options.maxConnections, environment,
                                             QStringLiteral("BUZZ_MAX_CONNECTIONS"))) {
        auto connections = parseNonNegative(*limit, QStringLiteral("max-connections"));
        if (!connections)
            return Unexpected(connections.error());
        config.maxConnections = *connections;
    }
    if (auto value = fromOptionOrEnvironment(parser, options.maxOutboundMb, environment,
                                             QStringLiteral("BUZZ_MAX_OUTBOUND_MB"))) {
        bool ok = false;
        const int mib = value->toInt(&ok);
        if (!ok || mib < kMinOutboundMiB || mib > kMaxOutboundMiB)
            return Unexpected("--max-outbound-mb expects an integer from "
                              + std::to_string(kMinOutboundMiB) + " to "
                              + std::to_string(kMaxOutboundMiB) + ", got " + value->toStdString());
        config.maxOutboundMiB = mib;
    }
    if (auto problem = applyReplicaSettings(config, parser, options.readMaxAgeMs, environment))
        return Unexpected(*problem);
    for (auto [target, option, variable] :
         {std::tuple {&config.httpLimits.headTimeoutMs, &options.httpHeadTimeoutMs,
                      QStringLiteral("BUZZ_HTTP_HEAD_TIMEOUT_MS")},
          std::tuple {&config.httpLimits.bodyTimeoutMs, &options.httpBodyTimeoutMs,
                      QStringLiteral("BUZZ_HTTP_BODY_TIMEOUT_MS")},
          std::tuple {&config.httpLimits.idleTimeoutMs, &options.httpIdleTimeoutMs,
                      QStringLiteral("BUZZ_HTTP_IDLE_TIMEOUT_MS")}}) {
        if (auto problem = applyHttpTimeout(*target, parser, *option, environment, variable))
            return Unexpected(*problem);
    }
    return parsed;
}

} // namespace buzz::relay
