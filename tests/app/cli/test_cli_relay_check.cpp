// `buzz-canvas-cli relay check` against buzz-mock-relay as a separate process, with a read
// replica behind a staleness budget so display reads are routed: every row passes, --json is one
// report, the text report names each row. On a PostgreSQL run (test_cli_relay_check_pg) the relay
// keeps its data on the test pair's primary and its streaming standby is the replica.

#include "CliTestSupport.h"
#include "PgTestCluster.h"

#include <QJsonArray>

using buzz::test::CliCall;
using buzz::test::kCli;
using buzz::test::kMockRelay;
using Run = buzz::test::CliRun;

namespace {

const QString kAdminToken = QStringLiteral("relay-check-admin");

// Every row the battery has; each must be in the report (a row silently dropped is a failure).
const QStringList kRows {QStringLiteral("channel.create"),
                         QStringLiteral("nip11.document"),
                         QStringLiteral("nip42.sign_in"),
                         QStringLiteral("nip98.accepted"),
                         QStringLiteral("nip98.replay"),
                         QStringLiteral("nip98.wrong_url"),
                         QStringLiteral("nip98.wrong_method"),
                         QStringLiteral("nip98.skew"),
                         QStringLiteral("consistency.strong"),
                         QStringLiteral("consistency.invalid"),
                         QStringLiteral("consistency.strong_route"),
                         QStringLiteral("cas.missing_revision"),
                         QStringLiteral("cas.first_write"),
                         QStringLiteral("cas.extend"),
                         QStringLiteral("cas.none_on_existing"),
                         QStringLiteral("cas.stale_base"),
                         QStringLiteral("cas.same_second_tie"),
                         QStringLiteral("cas.replay_head"),
                         QStringLiteral("cas.head_unchanged"),
                         QStringLiteral("canvas.ancestry"),
                         QStringLiteral("canvas.read_your_write"),
                         QStringLiteral("routed.lag"),
                         QStringLiteral("routed.within_budget"),
                         QStringLiteral("live.convergence"),
                         QStringLiteral("channel.delete")};

} // namespace

class TestCliRelayCheck : public QObject
{
    Q_OBJECT

    buzz::test::CliHarness m_harness;

    Run check(const QStringList &extra)
    {
        CliCall call;
        call.timeoutMs = 180000;
        return m_harness.run(QStringList {QStringLiteral("relay"), QStringLiteral("check")} + extra,
                             call);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        QVERIFY2(QFile::exists(kMockRelay), qPrintable(kMockRelay));
        QStringList options {QStringLiteral("--read-max-age-ms"), QStringLiteral("3000"),
                             QStringLiteral("--admin-token"), kAdminToken};
        if (const auto pg = buzz::relay::test::PgTestCluster::freshStore())
            options << QStringLiteral("--database-url") << QString::fromStdString(pg->writer)
                    << QStringLiteral("--read-database-url") << QString::fromStdString(pg->standby);
        else
            options << QStringLiteral("--replicas") << QStringLiteral("1")
                    << QStringLiteral("--replica-lag-ms") << QStringLiteral("200");
        QVERIFY(m_harness.startRelay(options));
    }

    void cleanupTestCase() { m_harness.stopRelay(); }

    void everyRowPassesOnTheMockRelay()
    {
        const Run run =
            check({QStringLiteral("--json"), QStringLiteral("--admin-token"), kAdminToken});
        QVERIFY2(run.exitCode == 0, QByteArray(run.out + run.err).constData());
        const QJsonObject report = run.json().toObject();
        QCOMPARE(report.value(QLatin1String("ok")).toBool(), true);
        QCOMPARE(report.value(QLatin1String("failed")).toInt(), 0);
        QVERIFY(isChannelId(report.value(QLatin1String("channel")).toString()));
        QStringList seen;
        for (const QJsonValue &value : report.value(QLatin1String("rows")).toArray()) {
            const QJsonObject row = value.toObject();
            const QString id = row.value(QLatin1String("id")).toString();
            seen << id;
            QVERIFY2(row.value(QLatin1String("status")).toString() == QLatin1String("pass"),
                     qPrintable(id + QStringLiteral(": ")
                                + QString::fromUtf8(QJsonDocument(row).toJson())));
            QVERIFY2(!row.value(QLatin1String("expected")).toString().isEmpty(), qPrintable(id));
            if (row.contains(QLatin1String("figures")))
                qInfo("%s: %s", qPrintable(id),
                      qPrintable(row.value(QLatin1String("figures")).toString()));
        }
        for (const QString &id : kRows)
            QVERIFY2(seen.contains(id), qPrintable(id + QStringLiteral(" missing")));
        QVERIFY2(!run.err.contains("{\"error\""), run.err.constData());
    }

    // Without --admin-token the admin-only row is not applicable, and says why; not a failure.
    void theTextReportNamesEveryRowAndTheAdminOnlyOneIsNotApplicable()
    {
        const Run run = check({});
        QVERIFY2(run.exitCode == 0, QByteArray(run.out + run.err).constData());
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.startsWith(QLatin1String("relay check of ")), qPrintable(text));
        const QString adminOnly = QStringLiteral("routed.within_budget");
        for (const QString &id : kRows) {
            if (id != adminOnly)
                QVERIFY2(text.contains(QStringLiteral("pass  ") + id), qPrintable(text));
        }
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral(
                     "\\nn/a   routed\\.within_budget .*\\(needs --admin-token\\)\\n"))),
                 qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(
                     QStringLiteral("\\d+ passed, 0 failed, 1 not applicable\\n$"))),
                 qPrintable(text));
    }

    void usageErrorsComeFirst()
    {
        const Run unknown = m_harness.run({QStringLiteral("relay"), QStringLiteral("inspect")});
        QCOMPARE(unknown.exitCode, 1);
        QCOMPARE(unknown.error().value(QLatin1String("error")).toString(), QStringLiteral("usage"));
        QTemporaryDir empty;
        CliCall keyless;
        keyless.key.clear();
        keyless.cliDir = empty.path();
        const Run noKey =
            m_harness.run({QStringLiteral("relay"), QStringLiteral("check")}, keyless);
        QCOMPARE(noKey.exitCode, 3);
    }

private:
    static bool isChannelId(const QString &text)
    {
        static const QRegularExpression uuid(
            QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
        return uuid.match(text).hasMatch();
    }
};

QTEST_GUILESS_MAIN(TestCliRelayCheck)
#include "test_cli_relay_check.moc"
