// buzz-canvas-cli end to end against buzz-mock-relay, both as separate processes: stdout JSON,
// stderr errors and exit codes as scripts see them.

#include "CliTestSupport.h"

using buzz::test::CliCall;
using buzz::test::kAliceKey;
using buzz::test::kAlicePub;
using buzz::test::kBobKey;
using buzz::test::kCli;
using buzz::test::kMockRelay;
using Run = buzz::test::CliRun;

class TestCli : public QObject
{
    Q_OBJECT

    buzz::test::CliHarness m_harness;

    Run cli(const QStringList &arguments, const QByteArray &input = {},
            const QString &key = kAliceKey, const QString &cliDir = {})
    {
        CliCall call;
        call.input = input;
        call.key = key;
        call.cliDir = cliDir;
        return m_harness.run(arguments, call);
    }

    QString createChannel(const QString &name) { return m_harness.createChannel(name); }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        QVERIFY2(QFile::exists(kMockRelay), qPrintable(kMockRelay));
        QVERIFY(m_harness.startRelay());
    }

    void cleanupTestCase() { m_harness.stopRelay(); }

    void versionHelpAndUsageErrors()
    {
        const Run version = cli({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("buzz-canvas-cli "));
        const Run help = cli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("canvas get"));
        QCOMPARE(cli({}).exitCode, 1);
        const Run unknown =
            cli({QStringLiteral("canvas"), QStringLiteral("get"), QStringLiteral("--bogus")});
        QCOMPARE(unknown.exitCode, 1);
        QCOMPARE(unknown.error().value(QLatin1String("error")).toString(), QStringLiteral("usage"));
        const Run noChannel = cli({QStringLiteral("canvas"), QStringLiteral("set"),
                                   QStringLiteral("--content"), QStringLiteral("x")});
        QCOMPARE(noChannel.exitCode, 1);
    }

    void identityGenerateShowImport()
    {
        QTemporaryDir dir;
        const Run none =
            cli({QStringLiteral("identity"), QStringLiteral("show")}, {}, QString(), dir.path());
        QCOMPARE(none.exitCode, 3);
        QCOMPARE(none.error().value(QLatin1String("error")).toString(), QStringLiteral("auth"));

        const Run generated = cli({QStringLiteral("identity"), QStringLiteral("generate")}, {},
                                  QString(), dir.path());
        QCOMPARE(generated.exitCode, 0);
        const QString pubkey =
            generated.json().toObject().value(QLatin1String("pubkey")).toString();
        QCOMPARE(pubkey.size(), 64);
        QVERIFY(generated.json()
                    .toObject()
                    .value(QLatin1String("npub"))
                    .toString()
                    .startsWith(QLatin1String("npub1")));
        const QString keyFile = dir.filePath(QStringLiteral("identity.key"));
        QVERIFY(QFile::exists(keyFile));
        QVERIFY(!(QFile::permissions(keyFile) & (QFileDevice::ReadGroup | QFileDevice::ReadOther)));
        QVERIFY(!generated.out.contains("nsec1")); // the secret is never printed unless asked

        const Run shown =
            cli({QStringLiteral("identity"), QStringLiteral("show")}, {}, QString(), dir.path());
        QCOMPARE(shown.json().toObject().value(QLatin1String("pubkey")).toString(), pubkey);
        QCOMPARE(shown.json().toObject().value(QLatin1String("source")).toString(),
                 QStringLiteral("file"));

        const Run imported =
            cli({QStringLiteral("identity"), QStringLiteral("import"), QStringLiteral("-")},
                kAliceKey.toLatin1(), QString(), dir.path());
        QCOMPARE(imported.exitCode, 0);
        QCOMPARE(imported.json().toObject().value(QLatin1String("pubkey")).toString(), kAlicePub);
        const Run bad = cli(
            {QStringLiteral("identity"), QStringLiteral("import"), QStringLiteral("nsec1garbage")},
            {}, QString(), dir.path());
        QCOMPARE(bad.exitCode, 1);
        // BUZZ_PRIVATE_KEY overrides the stored identity.
        const Run env =
            cli({QStringLiteral("identity"), QStringLiteral("show")}, {}, kBobKey, dir.path());
        QCOMPARE(env.json().toObject().value(QLatin1String("source")).toString(),
                 QStringLiteral("environment"));
        QVERIFY(env.json().toObject().value(QLatin1String("pubkey")).toString() != kAlicePub);
        const Run badKey = cli({QStringLiteral("identity"), QStringLiteral("show"),
                                QStringLiteral("--private-key"), QStringLiteral("nope")});
        QCOMPARE(badKey.exitCode, 3);
    }

    void eventSignAndVerify()
    {
        const Run signedRun =
            cli({QStringLiteral("event"), QStringLiteral("sign")},
                R"({"kind":1,"content":"hi","tags":[["t","x"]],"created_at":1700000000})");
        QCOMPARE(signedRun.exitCode, 0);
        const QJsonObject event = QJsonDocument::fromJson(signedRun.out).object();
        QCOMPARE(event.value(QLatin1String("pubkey")).toString(), kAlicePub);
        QCOMPARE(event.value(QLatin1String("created_at")).toInteger(), 1700000000);
        QByteArray tampered = signedRun.out.trimmed();
        tampered.replace("\"hi\"", "\"ho\"");
        const Run verified = cli({QStringLiteral("event"), QStringLiteral("verify")},
                                 signedRun.out.trimmed() + "\n" + tampered + "\nnot json\n");
        QCOMPARE(verified.exitCode, 4);
        const QList<QByteArray> lines = verified.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(first.value(QLatin1String("valid")).toBool(), true);
        QCOMPARE(first.value(QLatin1String("id")).toString(),
                 event.value(QLatin1String("id")).toString());
        QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value(QLatin1String("valid")).toBool(),
                 false);
        QCOMPARE(QJsonDocument::fromJson(lines[2]).object().value(QLatin1String("valid")).toBool(),
                 false);
        const Run onlyValid =
            cli({QStringLiteral("event"), QStringLiteral("verify")}, signedRun.out);
        QCOMPARE(onlyValid.exitCode, 0);
    }

    void channelsCreateListJoin()
    {
        const QString channel = createChannel(QStringLiteral("cli-team"));
        QCOMPARE(channel.size(), 36);
        QCOMPARE(channel, channel.toLower());
        const Run listed = cli({QStringLiteral("channels"), QStringLiteral("list")});
        QCOMPARE(listed.exitCode, 0);
        bool found = false;
        for (const QJsonValue &value : listed.json().toArray()) {
            const QJsonObject object = value.toObject();
            if (object.value(QLatin1String("id")).toString() == channel) {
                found = true;
                QCOMPARE(object.value(QLatin1String("member")).toBool(), true);
                QCOMPARE(object.value(QLatin1String("role")).toString(), QStringLiteral("owner"));
                QCOMPARE(object.value(QLatin1String("can_edit_canvas")).toBool(), true);
            }
        }
        QVERIFY(found);
        const Run joined = cli({QStringLiteral("channels"), QStringLiteral("join"),
                                QStringLiteral("--channel"), channel},
                               {}, kBobKey);
        QCOMPARE(joined.exitCode, 0);
        const Run info = cli({QStringLiteral("channels"), QStringLiteral("info"),
                              QStringLiteral("--channel"), channel},
                             {}, kBobKey);
        QCOMPARE(info.json().toObject().value(QLatin1String("member")).toBool(), true);
        QCOMPARE(cli({QStringLiteral("channels"), QStringLiteral("create")}).exitCode, 1);
    }

    void canvasGetSetHistoryRestore()
    {
        const QString channel = createChannel(QStringLiteral("cli-canvas"));
        const QStringList on {QStringLiteral("--channel"), channel};
        const Run empty = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get")} + on);
        QCOMPARE(empty.exitCode, 0);
        QCOMPARE(empty.out, QByteArray("null\n"));

        const Run first = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                                           QStringLiteral("--content"), QStringLiteral("hello")}
                              + on);
        QCOMPARE(first.exitCode, 0);
        const QJsonObject firstJson = first.json().toObject();
        QCOMPARE(firstJson.value(QLatin1String("accepted")).toBool(), true);
        QCOMPARE(firstJson.value(QLatin1String("verified")).toBool(), true);
        const QString firstId = firstJson.value(QLatin1String("event_id")).toString();

        const QByteArray multiline = "# Title\r\n\nline with trailing spaces   \n\tlast";
        const Run second = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                                            QStringLiteral("--content"), QStringLiteral("-")}
                                   + on,
                               multiline);
        QCOMPARE(second.exitCode, 0);
        QCOMPARE(cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get")} + on).out,
                 multiline);

        const Run history =
            cli(QStringList {QStringLiteral("canvas"), QStringLiteral("history")} + on);
        QCOMPARE(history.exitCode, 0);
        const QJsonArray revisions = history.json().toArray();
        QCOMPARE(revisions.size(), 2);
        QCOMPARE(revisions.at(1).toObject().value(QLatin1String("event_id")).toString(), firstId);
        QCOMPARE(revisions.at(0).toObject().value(QLatin1String("expected_revision")).toString(),
                 firstId);

        const Run byRevision = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                                                QStringLiteral("--revision"), firstId}
                                   + on);
        QCOMPARE(byRevision.out, QByteArray("hello"));
        const Run missing =
            cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                             QStringLiteral("--revision"), QString(64, QLatin1Char('0'))}
                + on);
        QCOMPARE(missing.out, QByteArray("null\n"));
        QCOMPARE(cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get"),
                                  QStringLiteral("--revision"), QStringLiteral("xyz")}
                     + on)
                     .exitCode,
                 1);

        const Run restored = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("restore"),
                                              QStringLiteral("--revision"), firstId}
                                 + on);
        QCOMPARE(restored.exitCode, 0);
        QCOMPARE(restored.json().toObject().value(QLatin1String("verified")).toBool(), true);
        QCOMPARE(cli(QStringList {QStringLiteral("canvas"), QStringLiteral("get")} + on).out,
                 QByteArray("hello"));
        const QString headId =
            restored.json().toObject().value(QLatin1String("event_id")).toString();
        const Run again = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("restore"),
                                           QStringLiteral("--revision"), headId}
                              + on);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.json().toObject().value(QLatin1String("message")).toString(),
                 QStringLiteral("already-current"));
        QVERIFY(again.err.contains("already the current revision"));
        QCOMPARE(cli(QStringList {QStringLiteral("canvas"), QStringLiteral("history")} + on)
                     .json()
                     .toArray()
                     .size(),
                 3);

        const Run unconditional =
            cli(QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                             QStringLiteral("--content"), QStringLiteral("legacy"),
                             QStringLiteral("--unconditional")}
                + on);
        QCOMPARE(unconditional.exitCode, 0);

        // --trace: every request on stderr with caller and consistency.
        const Run traced = cli(QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                                            QStringLiteral("--content"), QStringLiteral("traced"),
                                            QStringLiteral("--trace")}
                               + on);
        QCOMPARE(traced.exitCode, 0);
        QVERIFY(traced.err.contains("canvas_precondition POST /query strong"));
        QVERIFY(traced.err.contains("canvas_ancestry POST /query strong"));
        const Run tracedGet = cli(
            QStringList {QStringLiteral("canvas"), QStringLiteral("get"), QStringLiteral("--trace")}
            + on);
        QVERIFY(tracedGet.err.contains("canvas_head_display POST /query routed"));
    }

    void searchFindsCanvasText()
    {
        const QString channel = createChannel(QStringLiteral("cli-search"));
        QCOMPARE(cli({QStringLiteral("canvas"), QStringLiteral("set"), QStringLiteral("--channel"),
                      channel, QStringLiteral("--content"),
                      QStringLiteral("quarterly zanzibarplanning notes")})
                     .exitCode,
                 0);
        Run found;
        // Indexing may be asynchronous: poll a few times instead of sleeping.
        QTRY_VERIFY_WITH_TIMEOUT(
            (found = cli({QStringLiteral("search"), QStringLiteral("zanzibarplanning")}))
                    .json()
                    .toArray()
                    .size()
                > 0,
            10000);
        QCOMPARE(found.exitCode, 0);
        QCOMPARE(found.json().toArray().at(0).toObject().value(QLatin1String("channel")).toString(),
                 channel);
        QCOMPARE(cli({QStringLiteral("search")}).exitCode, 1);
        QCOMPARE(
            cli({QStringLiteral("search"), QStringLiteral("--profiles"), QStringLiteral("nobody")})
                .exitCode,
            0);
    }

    void unreachableRelayIsExitTwo()
    {
        const Run run =
            cli({QStringLiteral("canvas"), QStringLiteral("get"), QStringLiteral("--channel"),
                 QStringLiteral("6f1c0d2e-1111-4222-8333-944455556666"), QStringLiteral("--relay"),
                 QStringLiteral("http://127.0.0.1:1")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.error().value(QLatin1String("error")).toString(), QStringLiteral("network"));
        QVERIFY(run.error()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("relay unreachable:")));
    }

    void rejectedWriteIsExitTwoWithTheRelaysMessage()
    {
        // A channel that does not exist: the relay rejects the write with its own wording.
        const Run run =
            cli({QStringLiteral("canvas"), QStringLiteral("set"), QStringLiteral("--channel"),
                 QStringLiteral("6f1c0d2e-1111-4222-8333-944455556666"),
                 QStringLiteral("--content"), QStringLiteral("x")});
        QVERIFY2(run.exitCode == 2 || run.exitCode == 3, run.err.constData());
        QVERIFY(run.error()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("relay returned 4")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
