// buzz-mock-relay option parsing for the relay-membership gate: flag and environment, member lists
// from the command line (hex either case, npub) and from BUZZ_RELAY_MEMBERS, one-line errors.

#include "app/mock-relay/RelayConfig.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Nip19.h"
#include "relay/server/RelayLimits.h"

#include <QtTest>

#include <cctype>

using namespace buzz;
using namespace buzz::relay;

namespace {

Expected<RelayConfig::Parsed> parse(QStringList arguments,
                                    const QProcessEnvironment &environment = {})
{
    arguments.prepend(QStringLiteral("buzz-mock-relay"));
    return RelayConfig::fromArguments(arguments, environment);
}

QProcessEnvironment environmentWith(const QString &name, const QString &value)
{
    QProcessEnvironment environment;
    environment.insert(name, value);
    return environment;
}

std::string freshPubkey()
{
    return nostr::SecretKey::generate().publicKeyHex();
}

QString upperCase(const std::string &hex)
{
    return QString::fromStdString(hex).toUpper();
}

} // namespace

class TestServerConfig : public QObject
{
    Q_OBJECT

private slots:
    void gateOffByDefault();
    void gateFromFlag();
    void gateFromEnvironment_data();
    void gateFromEnvironment();
    void membersFromCommandLine();
    void membersFromEnvironment();
    void commandLineMembersReplaceEnvironment();
    void badMemberIsAOneLineError_data();
    void badMemberIsAOneLineError();
    void helpNamesTheNewOptions();
    void maxConnections();
    void maxOutboundMemory();
    void replicaReadSettingsFromEnvironment();
    void badReplicaReadSettingsAreOneLineErrors_data();
    void badReplicaReadSettingsAreOneLineErrors();
    void readMaxAgeFromFlag();
    void badReadMaxAgeFlagIsAOneLineError_data();
    void badReadMaxAgeFlagIsAOneLineError();
    void routingSummarySaysWhetherReplicasServeReads();
    void dataDirFromFlagOrRelayVariable();
    void ambiguousDataDirVariableIsAnError();
    void httpTimeoutsFromFlagsAndEnvironment();
    void badHttpTimeoutIsAOneLineError_data();
    void badHttpTimeoutIsAOneLineError();
    void helpAndManPageListEveryLimit();
};

void TestServerConfig::gateOffByDefault()
{
    const auto parsed = parse({});
    QVERIFY(parsed.hasValue());
    QVERIFY(!parsed->config.requireRelayMembership);
    QVERIFY(parsed->config.relayMembers.empty());
}

void TestServerConfig::gateFromFlag()
{
    const auto parsed = parse({QStringLiteral("--require-relay-membership")});
    QVERIFY(parsed.hasValue());
    QVERIFY(parsed->config.requireRelayMembership);
}

void TestServerConfig::gateFromEnvironment_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("required");
    QTest::newRow("true") << "true" << true;
    QTest::newRow("TRUE") << "TRUE" << true;
    QTest::newRow("1") << "1" << true;
    QTest::newRow("false") << "false" << false;
    QTest::newRow("empty") << "" << false;
}

void TestServerConfig::gateFromEnvironment()
{
    QFETCH(QString, value);
    QFETCH(bool, required);
    const auto parsed =
        parse({}, environmentWith(QStringLiteral("BUZZ_REQUIRE_RELAY_MEMBERSHIP"), value));
    QVERIFY(parsed.hasValue());
    QCOMPARE(parsed->config.requireRelayMembership, required);
}

void TestServerConfig::membersFromCommandLine()
{
    const std::string alice = freshPubkey();
    const std::string bob = freshPubkey();
    const auto parsed =
        parse({QStringLiteral("--relay-member"), upperCase(alice), QStringLiteral("--relay-member"),
               QString::fromStdString(nostr::nip19::encodeNpub(bob))});
    QVERIFY2(parsed.hasValue(), parsed ? "" : parsed.error().c_str());
    // Both forms end up as the wire form: 64 lower-case hex.
    QCOMPARE(parsed->config.relayMembers, (std::vector<std::string> {alice, bob}));
}

void TestServerConfig::membersFromEnvironment()
{
    const std::string alice = freshPubkey();
    const std::string bob = freshPubkey();
    const QString list = QString::fromStdString(alice) + QStringLiteral(" , ")
        + QString::fromStdString(nostr::nip19::encodeNpub(bob)) + QStringLiteral(",");
    const auto parsed = parse({}, environmentWith(QStringLiteral("BUZZ_RELAY_MEMBERS"), list));
    QVERIFY2(parsed.hasValue(), parsed ? "" : parsed.error().c_str());
    QCOMPARE(parsed->config.relayMembers, (std::vector<std::string> {alice, bob}));
}

void TestServerConfig::commandLineMembersReplaceEnvironment()
{
    const std::string fromEnvironment = freshPubkey();
    const std::string fromCommandLine = freshPubkey();
    const auto parsed =
        parse({QStringLiteral("--relay-member"), QString::fromStdString(fromCommandLine)},
              environmentWith(QStringLiteral("BUZZ_RELAY_MEMBERS"),
                              QString::fromStdString(fromEnvironment)));
    QVERIFY(parsed.hasValue());
    QCOMPARE(parsed->config.relayMembers, (std::vector<std::string> {fromCommandLine}));
}

void TestServerConfig::badMemberIsAOneLineError_data()
{
    QTest::addColumn<bool>("fromEnvironment");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error");
    const QString shortHex(63, QLatin1Char('a'));
    const QString notHex = QString(63, QLatin1Char('a')) + QLatin1Char('g');
    std::string npub = nostr::nip19::encodeNpub(freshPubkey());
    npub.back() = npub.back() == 'q' ? 'p' : 'q'; // breaks the bech32 checksum
    const QString badNpub = QString::fromStdString(npub);
    const QString option = QStringLiteral("--relay-member expects a 64-hex pubkey or npub, got ");
    const QString variable =
        QStringLiteral("BUZZ_RELAY_MEMBERS expects a 64-hex pubkey or npub, got ");
    QTest::newRow("short hex") << false << shortHex << option + shortHex;
    QTest::newRow("not hex") << false << notHex << option + notHex;
    QTest::newRow("bad npub") << false << badNpub << option + badNpub;
    const QString nsec = QString::fromStdString(nostr::SecretKey::generate().toNsec());
    QTest::newRow("nsec is not echoed")
        << false << nsec
        << QStringLiteral("--relay-member expects a public key (64-hex or npub), got a secret "
                          "key (nsec)");
    QTest::newRow("empty") << false << QString() << option;
    QTest::newRow("env entry")
        << true << QString(QStringLiteral("%1,xyz")).arg(QString(64, QLatin1Char('b')))
        << variable + QStringLiteral("xyz");
}

void TestServerConfig::badMemberIsAOneLineError()
{
    QFETCH(bool, fromEnvironment);
    QFETCH(QString, value);
    QFETCH(QString, error);
    const auto parsed = fromEnvironment
        ? parse({}, environmentWith(QStringLiteral("BUZZ_RELAY_MEMBERS"), value))
        : parse({QStringLiteral("--relay-member"), value});
    QVERIFY(!parsed.hasValue());
    QCOMPARE(QString::fromStdString(parsed.error()), error);
    QVERIFY(!QString::fromStdString(parsed.error()).contains(QLatin1Char('\n')));
}

void TestServerConfig::helpNamesTheNewOptions()
{
    const QString help = RelayConfig::helpText();
    QVERIFY(help.contains(QStringLiteral("--require-relay-membership")));
    QVERIFY(help.contains(QStringLiteral("BUZZ_REQUIRE_RELAY_MEMBERSHIP")));
    QVERIFY(help.contains(QStringLiteral("--relay-member <PUBKEY>")));
    QVERIFY(help.contains(QStringLiteral("BUZZ_RELAY_MEMBERS")));
}

void TestServerConfig::maxConnections()
{
    QCOMPARE(parse({})->config.maxConnections, 10000); // upstream's BUZZ_MAX_CONNECTIONS default
    QCOMPARE(
        parse({QStringLiteral("--max-connections"), QStringLiteral("5")})->config.maxConnections,
        5);
    QCOMPARE(parse({}, environmentWith(QStringLiteral("BUZZ_MAX_CONNECTIONS"), QStringLiteral("7")))
                 ->config.maxConnections,
             7);
    QCOMPARE(parse({QStringLiteral("--max-connections"), QStringLiteral("9")},
                   environmentWith(QStringLiteral("BUZZ_MAX_CONNECTIONS"), QStringLiteral("7")))
                 ->config.maxConnections,
             9); // the command line wins
    const auto bad = parse({QStringLiteral("--max-connections"), QStringLiteral("many")});
    QVERIFY(!bad.hasValue());
    QVERIFY(bad.error().find("max-connections") != std::string::npos);
    QVERIFY(RelayConfig::helpText().contains(QStringLiteral("BUZZ_MAX_CONNECTIONS")));
}

// The relay-wide outbound bound (relay/README.md "Limits"), in MiB.
void TestServerConfig::maxOutboundMemory()
{
    QCOMPARE(parse({})->config.maxOutboundMiB, 256);
    QCOMPARE(
        parse({QStringLiteral("--max-outbound-mb"), QStringLiteral("64")})->config.maxOutboundMiB,
        64);
    QCOMPARE(
        parse({}, environmentWith(QStringLiteral("BUZZ_MAX_OUTBOUND_MB"), QStringLiteral("512")))
            ->config.maxOutboundMiB,
        512);
    for (const char *bad : {"63", "1048577", "lots", "-1"}) {
        const auto refused = parse({QStringLiteral("--max-outbound-mb"), QLatin1String(bad)});
        QVERIFY(!refused.hasValue());
        QCOMPARE(refused.error(),
                 "--max-outbound-mb expects an integer from 64 to 1048576, got "
                     + std::string(bad));
    }
    QVERIFY(RelayConfig::helpText().contains(QStringLiteral("BUZZ_MAX_OUTBOUND_MB")));
}

// The replica tier reads the real relay's variables here, in the app, and nowhere in the library.
void TestServerConfig::replicaReadSettingsFromEnvironment()
{
    const auto defaults = parse({});
    QCOMPARE(defaults->config.readBudgetMs, qint64(0)); // routing off: every read on the writer
    QCOMPARE(defaults->config.readPoolSize, 4);
    QCOMPARE(parse({},
                   environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"),
                                   QStringLiteral("1500")))
                 ->config.readBudgetMs,
             qint64(1500));
    QCOMPARE(parse({},
                   environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"),
                                   QStringLiteral("600000")))
                 ->config.readBudgetMs,
             qint64(30000)); // clamped
    QCOMPARE(
        parse({}, environmentWith(QStringLiteral("BUZZ_DB_READ_POOL_SIZE"), QStringLiteral("2")))
            ->config.readPoolSize,
        2);
}

void TestServerConfig::badReplicaReadSettingsAreOneLineErrors_data()
{
    QTest::addColumn<QString>("variable");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative budget")
        << "BUZZ_REPLICA_READ_MAX_AGE_MS"
        << "-1"
        << "BUZZ_REPLICA_READ_MAX_AGE_MS must be a non-negative integer (got -1)";
    QTest::newRow("budget not a number")
        << "BUZZ_REPLICA_READ_MAX_AGE_MS"
        << "1s"
        << "BUZZ_REPLICA_READ_MAX_AGE_MS must be a non-negative integer (got 1s)";
    QTest::newRow("pool of 0") << "BUZZ_DB_READ_POOL_SIZE"
                               << "0"
                               << "BUZZ_DB_READ_POOL_SIZE must be an integer in 1..256 (got 0)";
    QTest::newRow("pool too large")
        << "BUZZ_DB_READ_POOL_SIZE"
        << "257"
        << "BUZZ_DB_READ_POOL_SIZE must be an integer in 1..256 (got 257)";
    QTest::newRow("retired variable")
        << "BUZZ_REPLICA_HEAD_MAX_AGE_SECS"
        << "5"
        << "BUZZ_REPLICA_HEAD_MAX_AGE_SECS is no longer supported; set "
           "BUZZ_REPLICA_READ_MAX_AGE_MS (milliseconds) instead";
}

void TestServerConfig::badReplicaReadSettingsAreOneLineErrors()
{
    QFETCH(QString, variable);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const auto parsed = parse({}, environmentWith(variable, value));
    QVERIFY(!parsed.hasValue());
    QCOMPARE(QString::fromStdString(parsed.error()), message);
}

// --replicas alone routes nothing: the budget has a flag of its own, which wins over the variable.
void TestServerConfig::readMaxAgeFromFlag()
{
    const auto flag = parse({QStringLiteral("--read-max-age-ms"), QStringLiteral("2500")});
    QVERIFY2(flag.hasValue(), flag ? "" : flag.error().c_str());
    QCOMPARE(flag->config.readBudgetMs, qint64(2500));
    QCOMPARE(flag->config.readBudgetSource, QStringLiteral("--read-max-age-ms"));
    const auto both = parse(
        {QStringLiteral("--read-max-age-ms=700")},
        environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"), QStringLiteral("1500")));
    QCOMPARE(both->config.readBudgetMs, qint64(700)); // the command line wins
    const auto variable = parse(
        {},
        environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"), QStringLiteral("1500")));
    QCOMPARE(variable->config.readBudgetSource, QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"));
    const auto off = parse(
        {QStringLiteral("--read-max-age-ms"), QStringLiteral("0")},
        environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"), QStringLiteral("1500")));
    QCOMPARE(off->config.readBudgetMs, qint64(0)); // 0 on the command line turns routing off
    QCOMPARE(
        parse({QStringLiteral("--read-max-age-ms"), QStringLiteral("600000")})->config.readBudgetMs,
        qint64(30000)); // clamped like the variable
    const QString help = RelayConfig::helpText();
    QVERIFY(help.contains(QStringLiteral("--read-max-age-ms <MS>")));
    QVERIFY(help.contains(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS")));
}

void TestServerConfig::badReadMaxAgeFlagIsAOneLineError_data()
{
    QTest::addColumn<QString>("value");
    QTest::newRow("negative") << "-1";
    QTest::newRow("unit") << "2s";
    QTest::newRow("empty") << "";
}

void TestServerConfig::badReadMaxAgeFlagIsAOneLineError()
{
    QFETCH(QString, value);
    const auto parsed = parse({QStringLiteral("--read-max-age-ms"), value});
    QVERIFY(!parsed.hasValue());
    QCOMPARE(
        QString::fromStdString(parsed.error()),
        QStringLiteral("--read-max-age-ms must be a non-negative integer (got %1)").arg(value));
}

void TestServerConfig::routingSummarySaysWhetherReplicasServeReads()
{
    const QStringList lagged {QStringLiteral("--replicas"), QStringLiteral("1"),
                              QStringLiteral("--replica-lag-ms"), QStringLiteral("2000")};
    const QString off = parse(lagged)->config.routingSummary();
    QVERIFY2(off.startsWith(QStringLiteral("read routing: off, no budget: every read is served by "
                                           "the writer, none by 1 replica (lag 2000 ms)")),
             qPrintable(off));
    QVERIFY(off.contains(QStringLiteral("--read-max-age-ms")));
    const QString on =
        parse(lagged + QStringList {QStringLiteral("--read-max-age-ms"), QStringLiteral("5000")})
            ->config.routingSummary();
    QVERIFY2(on.startsWith(QStringLiteral("read routing: on, budget 5000 ms (from "
                                          "--read-max-age-ms): display reads may be served by 1 "
                                          "replica (lag 2000 ms)")),
             qPrintable(on));
    QVERIFY(!on.contains(QStringLiteral("fall back")));
    const QString tooLagged =
        parse(lagged + QStringList {QStringLiteral("--read-max-age-ms"), QStringLiteral("1000")})
            ->config.routingSummary();
    QVERIFY2(tooLagged.contains(QStringLiteral("fall back to the writer")), qPrintable(tooLagged));
    QCOMPARE(parse({})->config.routingSummary(), QStringLiteral("read routing: off (no replicas)"));
    const QString noReplicas = parse({},
                                     environmentWith(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS"),
                                                     QStringLiteral("800")))
                                   ->config.routingSummary();
    QVERIFY2(noReplicas.startsWith(QStringLiteral("read routing: off (no replicas")),
             qPrintable(noReplicas));
    QVERIFY(noReplicas.contains(QStringLiteral("BUZZ_REPLICA_READ_MAX_AGE_MS")));
}

void TestServerConfig::dataDirFromFlagOrRelayVariable()
{
    QVERIFY(!parse({})->config.dataDir);
    QCOMPARE(parse({QStringLiteral("--data"), QStringLiteral("/tmp/a")})->config.dataDir,
             std::optional<QString>(QStringLiteral("/tmp/a")));
    const auto variable =
        parse({}, environmentWith(QStringLiteral("BUZZ_RELAY_DATA_DIR"), QStringLiteral("/tmp/b")));
    QCOMPARE(variable->config.dataDir, std::optional<QString>(QStringLiteral("/tmp/b")));
    QProcessEnvironment both;
    both.insert(QStringLiteral("BUZZ_RELAY_DATA_DIR"), QStringLiteral("/tmp/b"));
    both.insert(QStringLiteral("BUZZ_DATA_DIR"), QStringLiteral("/tmp/cli"));
    // The CLI's variable in the same shell does not matter once the relay's own is set.
    QCOMPARE(parse({}, both)->config.dataDir, std::optional<QString>(QStringLiteral("/tmp/b")));
    QCOMPARE(parse({QStringLiteral("--data"), QStringLiteral("/tmp/a")}, both)->config.dataDir,
             std::optional<QString>(QStringLiteral("/tmp/a")));
    QVERIFY(RelayConfig::helpText().contains(QStringLiteral("BUZZ_RELAY_DATA_DIR")));
}

// BUZZ_DATA_DIR also names buzz-canvas-cli's identity folder: a relay that read it wrote its
// SQLite files next to the CLI's key. Alone, it stops the relay with the names to use instead.
void TestServerConfig::ambiguousDataDirVariableIsAnError()
{
    const auto parsed =
        parse({}, environmentWith(QStringLiteral("BUZZ_DATA_DIR"), QStringLiteral("/tmp/cli")));
    QVERIFY(!parsed.hasValue());
    const QString error = QString::fromStdString(parsed.error());
    QVERIFY2(error.startsWith(QStringLiteral("BUZZ_DATA_DIR is no longer read")),
             qPrintable(error));
    QVERIFY(error.contains(QStringLiteral("BUZZ_RELAY_DATA_DIR")));
    QVERIFY(error.contains(QStringLiteral("--data")));
    QVERIFY(error.contains(QStringLiteral("BUZZ_CLI_DIR")));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

// A process under test (or under a descriptor flood) needs short HTTP timeouts; none may exceed
// 30 s, the longest a half-sent request may hold a descriptor.
void TestServerConfig::httpTimeoutsFromFlagsAndEnvironment()
{
    const HttpLimits defaults = parse({})->config.httpLimits;
    QCOMPARE(defaults.headTimeoutMs, 10000);
    QCOMPARE(defaults.bodyTimeoutMs, 30000);
    QCOMPARE(defaults.idleTimeoutMs, 30000);
    const auto flags = parse({QStringLiteral("--http-head-timeout-ms"), QStringLiteral("1500"),
                              QStringLiteral("--http-body-timeout-ms"), QStringLiteral("2500"),
                              QStringLiteral("--http-idle-timeout-ms"), QStringLiteral("100")});
    QVERIFY(flags.hasValue());
    QCOMPARE(flags->config.httpLimits.headTimeoutMs, 1500);
    QCOMPARE(flags->config.httpLimits.bodyTimeoutMs, 2500);
    QCOMPARE(flags->config.httpLimits.idleTimeoutMs, 100);
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("BUZZ_HTTP_HEAD_TIMEOUT_MS"), QStringLiteral("2000"));
    environment.insert(QStringLiteral("BUZZ_HTTP_IDLE_TIMEOUT_MS"), QStringLiteral("3000"));
    const auto fromEnvironment =
        parse({QStringLiteral("--http-head-timeout-ms"), QStringLiteral("700")}, environment);
    QCOMPARE(fromEnvironment->config.httpLimits.headTimeoutMs, 700); // the command line wins
    QCOMPARE(fromEnvironment->config.httpLimits.idleTimeoutMs, 3000);
    QCOMPARE(fromEnvironment->config.httpLimits.bodyTimeoutMs, 30000);
}

void TestServerConfig::badHttpTimeoutIsAOneLineError_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("variable");
    QTest::addColumn<QString>("expected");
    QTest::newRow("above 30 s") << QStringList {QStringLiteral("--http-idle-timeout-ms"),
                                                QStringLiteral("30001")}
                                << QString()
                                << QStringLiteral("--http-idle-timeout-ms must be an integer in "
                                                  "100..30000 (got 30001)");
    QTest::newRow("below 100 ms") << QStringList {QStringLiteral("--http-head-timeout-ms"),
                                                  QStringLiteral("5")}
                                  << QString()
                                  << QStringLiteral("--http-head-timeout-ms must be an integer in "
                                                    "100..30000 (got 5)");
    QTest::newRow("not a number")
        << QStringList() << QStringLiteral("soon")
        << QStringLiteral("BUZZ_HTTP_BODY_TIMEOUT_MS must be an integer in 100..30000 (got soon)");
}

void TestServerConfig::badHttpTimeoutIsAOneLineError()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, variable);
    QFETCH(QString, expected);
    const auto parsed = variable.isEmpty()
        ? parse(arguments)
        : parse(arguments, environmentWith(QStringLiteral("BUZZ_HTTP_BODY_TIMEOUT_MS"), variable));
    QVERIFY(!parsed.hasValue());
    QCOMPARE(QString::fromStdString(parsed.error()), expected);
}

// Every bound the relay enforces is listed by --help and in the man page's LIMITS, with the value
// the code uses (relayLimits() is built from the constants that enforce them).
void TestServerConfig::helpAndManPageListEveryLimit()
{
    const QString help = RelayConfig::helpText();
    QFile manPage(QStringLiteral(BUZZ_MAN_PAGE));
    QVERIFY(manPage.open(QIODevice::ReadOnly));
    const QString man = QString::fromUtf8(manPage.readAll());
    const auto limits = relayLimits();
    QVERIFY(limits.size() >= 20);
    for (const RelayLimit &limit : limits) {
        const QString line = QString::fromStdString(limit.what + ": " + limit.value);
        QVERIFY2(
            help.contains(line + QStringLiteral(" -> ") + QString::fromStdString(limit.answer)),
            qPrintable(line));
        QVERIFY2(man.contains(line + QLatin1Char('\n')), qPrintable("man page lacks " + line));
        if (!limit.option.empty())
            QVERIFY(help.contains(QString::fromStdString(limit.option)));
    }
    for (const char *option :
         {"http-head-timeout-ms", "http-body-timeout-ms", "http-idle-timeout-ms"})
        QVERIFY2(man.contains(QStringLiteral("\\-\\-") + QLatin1String(option)), option);
}

QTEST_GUILESS_MAIN(TestServerConfig)

#include "test_mock_relay_config.moc"
