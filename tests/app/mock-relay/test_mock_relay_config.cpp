// buzz-mock-relay option parsing for the relay-membership gate: flag and environment, member lists
// from the command line (hex either case, npub) and from BUZZ_RELAY_MEMBERS, one-line errors.

#include "app/mock-relay/RelayConfig.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Nip19.h"

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
    void replicaReadSettingsFromEnvironment();
    void badReplicaReadSettingsAreOneLineErrors_data();
    void badReplicaReadSettingsAreOneLineErrors();
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

QTEST_GUILESS_MAIN(TestServerConfig)

#include "test_mock_relay_config.moc"
