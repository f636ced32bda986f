// `buzz-canvas-cli canvas set --expected-revision ID|none` against buzz-mock-relay, both as
// separate processes: the stated precondition goes to the relay as it is, and a refused one ends
// with the relay's own conflict text (docs/buzz-protocol.md §Canvas CAS) and exit status 5.

#include "CliTestSupport.h"

using buzz::test::CliCall;
using buzz::test::kCli;
using buzz::test::kMockRelay;
using Run = buzz::test::CliRun;

namespace {

const QString kChangedSinceLoaded = QStringLiteral("conflict: canvas changed since it was loaded");
const QString kRevisionMissing = QStringLiteral("conflict: canvas revision does not exist");
// Ids no relay holds (not the SHA-256 of any event this suite signs).
const QString kUnknownId = QString(64, QLatin1Char('a'));

} // namespace

class TestCliExpectedRevision : public QObject
{
    Q_OBJECT

    buzz::test::CliHarness m_harness;

    Run set(const QString &channel, const QString &content, const QStringList &extra = {})
    {
        return m_harness.run(QStringList {QStringLiteral("canvas"), QStringLiteral("set"),
                                          QStringLiteral("--channel"), channel,
                                          QStringLiteral("--content"), content,
                                          QStringLiteral("--trace")}
                             + extra);
    }

    QByteArray get(const QString &channel)
    {
        return m_harness
            .run({QStringLiteral("canvas"), QStringLiteral("get"), QStringLiteral("--channel"),
                  channel})
            .out;
    }

    static QString eventId(const Run &run)
    {
        return run.json().toObject().value(QLatin1String("event_id")).toString();
    }

    // The refusal came from the relay (a 409 to the publish), not from a check of the client's.
    static bool relayAnswered409(const Run &run)
    {
        static const QRegularExpression publish409(
            QStringLiteral("trace: #\\d+ canvas_publish POST /events \\S+ 409 "));
        return publish409.match(QString::fromUtf8(run.err)).hasMatch();
    }

    static void verifyConflict(const Run &run, const QString &text)
    {
        QVERIFY2(run.exitCode == 5, run.err.constData());
        QCOMPARE(run.error().value(QLatin1String("error")).toString(), QStringLiteral("conflict"));
        const QString message = run.error().value(QLatin1String("message")).toString();
        QVERIFY2(message.startsWith(text), qPrintable(message));
        QVERIFY2(relayAnswered409(run), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        QVERIFY2(QFile::exists(kMockRelay), qPrintable(kMockRelay));
        QVERIFY(m_harness.startRelay());
    }

    void cleanupTestCase() { m_harness.stopRelay(); }

    void staleBaseAndNoneOnAnExistingCanvasGetTheRelaysConflict()
    {
        const QString channel = m_harness.createChannel(QStringLiteral("cas-script"));
        QVERIFY(!channel.isEmpty());
        const Run first = set(channel, QStringLiteral("one"));
        QCOMPARE(first.exitCode, 0);
        const Run second = set(channel, QStringLiteral("two"));
        QCOMPARE(second.exitCode, 0);
        const QString stale = eventId(first);
        const QString head = eventId(second);

        verifyConflict(
            set(channel, QStringLiteral("three"), {QStringLiteral("--expected-revision"), stale}),
            kChangedSinceLoaded);
        verifyConflict(set(channel, QStringLiteral("three"),
                           {QStringLiteral("--expected-revision"), QStringLiteral("none")}),
                       kChangedSinceLoaded);
        // The head's own text under a wrong precondition is still sent and refused: the relay
        // decides, and "already current" would hide its answer.
        verifyConflict(set(channel, QStringLiteral("two"),
                           {QStringLiteral("--expected-revision"), QStringLiteral("none")}),
                       kChangedSinceLoaded);
        verifyConflict(set(channel, QStringLiteral("three"),
                           {QStringLiteral("--expected-revision"), kUnknownId}),
                       kChangedSinceLoaded);
        QCOMPARE(get(channel), QByteArray("two"));

        // The head itself, in either case, passes; its own text again writes nothing.
        const Run onHead = set(channel, QStringLiteral("three"),
                               {QStringLiteral("--expected-revision"), head.toUpper()});
        QVERIFY2(onHead.exitCode == 0, onHead.err.constData());
        QCOMPARE(onHead.json().toObject().value(QLatin1String("verified")).toBool(), true);
        QCOMPARE(get(channel), QByteArray("three"));
        const Run same = set(channel, QStringLiteral("three"),
                             {QStringLiteral("--expected-revision"), eventId(onHead)});
        QCOMPARE(same.exitCode, 0);
        QCOMPARE(same.json().toObject().value(QLatin1String("message")).toString(),
                 QStringLiteral("already-current"));
    }

    void anIdOnAnEmptyCanvasIsAMissingRevisionAndNoneCreatesIt()
    {
        const QString channel = m_harness.createChannel(QStringLiteral("cas-empty"));
        QVERIFY(!channel.isEmpty());
        verifyConflict(set(channel, QStringLiteral("first"),
                           {QStringLiteral("--expected-revision"), kUnknownId}),
                       kRevisionMissing);
        QCOMPARE(get(channel), QByteArray("null\n"));
        const Run created = set(channel, QStringLiteral("first"),
                                {QStringLiteral("--expected-revision"), QStringLiteral("none")});
        QVERIFY2(created.exitCode == 0, created.err.constData());
        QCOMPARE(get(channel), QByteArray("first"));
    }

    void badValuesAreUsageErrorsBeforeAnyRequest()
    {
        const QString channel = QStringLiteral("00000000-0000-4000-8000-000000000001");
        for (const QStringList &extra :
             {QStringList {QStringLiteral("--expected-revision"), QStringLiteral("head")},
              QStringList {QStringLiteral("--expected-revision"), QString(63, QLatin1Char('a'))},
              QStringList {QStringLiteral("--expected-revision"), QStringLiteral("none"),
                           QStringLiteral("--unconditional")}}) {
            const Run run = set(channel, QStringLiteral("x"), extra);
            QCOMPARE(run.exitCode, 1);
            QCOMPARE(run.error().value(QLatin1String("error")).toString(), QStringLiteral("usage"));
            QVERIFY2(!run.err.contains("trace: #"), run.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliExpectedRevision)
#include "test_cli_expected_revision.moc"
