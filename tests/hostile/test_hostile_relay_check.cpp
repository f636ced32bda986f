// `buzz-canvas-cli relay check` against a relay without Buzz's canvas rules: the hostile relay's
// honest mode stores every event it is sent and answers filters, like a plain Nostr relay, but
// knows no compare-and-swap. The check must fail, naming the compare-and-swap rows, with the
// answer the relay gave; the CLI runs as its own process, the relay in this one.

#include "HostileRelay.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using buzz::test::HostileRelay;

namespace {

const QString kCli = QStringLiteral(BUZZ_BINARY_DIR "/app/cli/buzz-canvas-cli");
const QString kKey =
    QStringLiteral("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");

} // namespace

class TestHostileRelayCheck : public QObject
{
    Q_OBJECT

private slots:
    void aRelayWithoutCanvasCasFailsTheCasRows()
    {
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        HostileRelay relay;
        QVERIFY(relay.listen());
        QTemporaryDir home;
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"BUZZ_RELAY_URL", "BUZZ_CHANNEL", "BUZZ_USE_KEYCHAIN",
                                 "BUZZ_DATA_DIR", "BUZZ_CLI_DIR", "BUZZ_PRIVATE_KEY"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("BUZZ_PRIVATE_KEY"), kKey);
        env.insert(QStringLiteral("BUZZ_CLI_DIR"), home.path());
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        // The relay answers from this event loop: wait on the spy, never block in waitFor*.
        process.start(kCli,
                      {QStringLiteral("relay"), QStringLiteral("check"), QStringLiteral("--json"),
                       QStringLiteral("--relay"), relay.httpUrl()});
        process.closeWriteChannel();
        QVERIFY2(finished.wait(180000), "relay check did not finish");
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit, err.constData());
        QCOMPARE(process.exitCode(), 4);

        const QJsonObject report = QJsonDocument::fromJson(out).object();
        QCOMPARE(report.value(QLatin1String("ok")).toBool(), false);
        QHash<QString, QJsonObject> rows;
        for (const QJsonValue &value : report.value(QLatin1String("rows")).toArray())
            rows.insert(value.toObject().value(QLatin1String("id")).toString(), value.toObject());
        // Stored, where a Buzz relay answers 409 with its conflict text.
        for (const QString &id :
             {QStringLiteral("cas.missing_revision"), QStringLiteral("cas.none_on_existing"),
              QStringLiteral("cas.stale_base"), QStringLiteral("cas.same_second_tie"),
              QStringLiteral("cas.head_unchanged")}) {
            QVERIFY2(rows.contains(id), qPrintable(id));
            const QJsonObject row = rows.value(id);
            QVERIFY2(row.value(QLatin1String("status")).toString() == QLatin1String("fail"),
                     qPrintable(id));
            QVERIFY2(!row.value(QLatin1String("observed")).toString().isEmpty(), qPrintable(id));
        }
        QVERIFY(rows.value(QStringLiteral("cas.stale_base"))
                    .value(QLatin1String("observed"))
                    .toString()
                    .startsWith(QLatin1String("200 {\"accepted\":true")));
        // Writes that are fine anywhere still pass: the failure is the compare-and-swap's.
        QCOMPARE(rows.value(QStringLiteral("cas.first_write")).value(QLatin1String("status")),
                 QJsonValue(QStringLiteral("pass")));
        QCOMPARE(rows.value(QStringLiteral("channel.create")).value(QLatin1String("status")),
                 QJsonValue(QStringLiteral("pass")));

        // The last stderr line names the failed rows for a script's log.
        const QJsonObject error =
            QJsonDocument::fromJson(err.trimmed().split('\n').last()).object();
        const QString message = error.value(QLatin1String("message")).toString();
        QVERIFY2(message.startsWith(QLatin1String("relay check: ")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("cas.stale_base")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("cas.same_second_tie")), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestHostileRelayCheck)
#include "test_hostile_relay_check.moc"
