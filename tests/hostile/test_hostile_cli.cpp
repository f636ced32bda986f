// buzz-canvas-cli against a hostile relay (issue 26): the CLI runs as its own process, the relay
// in this one. Forged and foreign events are never printed (item 11, counted by --trace); an
// oversized or endless answer ends with a clear error once it passes the cap (item 12); canvas
// text cannot drive the user's terminal (item 13); a relay repeating a history page cannot make
// `canvas history` list one revision many times (item 15).

#include "HostileRelay.h"

#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <memory>

using namespace buzz;
using buzz::test::Forge;
using buzz::test::HostileRelay;

namespace {

const QString kCli = QStringLiteral(BUZZ_BINARY_DIR "/app/cli/buzz-canvas-cli");
const QString kChannel = QStringLiteral("3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a");
const QString kOtherChannel = QStringLiteral("7a7a7a7a-1111-4222-8333-944444444444");

qint64 now()
{
    return QDateTime::currentSecsSinceEpoch();
}

nostr::Event revision(const nostr::SecretKey &key, const QString &channel, qint64 createdAt,
                      const std::string &content)
{
    return key.signedEvent(nostr::kinds::kCanvas, createdAt, {{"h", channel.toStdString()}},
                           content);
}

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonArray array() const { return QJsonDocument::fromJson(out).array(); }
    QJsonObject error() const
    {
        return QJsonDocument::fromJson(err.trimmed().split('\n').last()).object();
    }
};

// A pseudo-terminal for the CLI's stdout, in raw mode (bytes arrive as written, no "\r\n").
struct Terminal
{
    int master = -1;
    QByteArray slavePath;
    QByteArray received;

    bool open()
    {
        master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
            return false;
        slavePath = ::ptsname(master);
        const int slave = ::open(slavePath.constData(), O_RDWR | O_NOCTTY);
        if (slave < 0)
            return false;
        termios raw {};
        ::tcgetattr(slave, &raw);
        ::cfmakeraw(&raw);
        ::tcsetattr(slave, TCSANOW, &raw);
        ::close(slave);
        ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
        return true;
    }
    void drain()
    {
        char buffer[65536];
        for (;;) {
            const ssize_t got = ::read(master, buffer, sizeof buffer);
            if (got <= 0)
                return;
            received.append(buffer, got);
        }
    }
    ~Terminal()
    {
        if (master >= 0)
            ::close(master);
    }
};

} // namespace

class TestHostileCli : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void forgedAndForeignRevisionsAreNeverPrinted();
    void endlessAnswerEndsWithAClearError();
    void relayCheckCutsAnEndlessAnswer();
    void terminalControlsAreEscapedOnATerminalOnly();
    void repeatingRelayCannotInflateHistory_data();
    void repeatingRelayCannotInflateHistory();

private:
    // Runs the CLI while this process keeps serving the relay (no blocking waits). With
    // `terminal`, its stdout is that pseudo-terminal's slave.
    CliRun run(QStringList arguments, Terminal *terminal = nullptr, int timeoutMs = 60000);
    void answerCanvasReadsWith(std::vector<nostr::Event> lies);

    QTemporaryDir m_home;
    std::unique_ptr<HostileRelay> m_relay;
    std::optional<nostr::SecretKey> m_alice;
    std::optional<nostr::SecretKey> m_bob;
};

void TestHostileCli::init()
{
    QVERIFY(m_home.isValid());
    m_relay = std::make_unique<HostileRelay>();
    QVERIFY(m_relay->listen());
    m_relay->addOpenChannel(kChannel, QStringLiteral("hostile"), now() - 600);
    m_alice.emplace(nostr::SecretKey::generate());
    m_bob.emplace(nostr::SecretKey::generate());
}

void TestHostileCli::cleanup()
{
    m_relay.reset();
}

CliRun TestHostileCli::run(QStringList arguments, Terminal *terminal, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"BUZZ_RELAY_URL", "BUZZ_CHANNEL", "BUZZ_USE_KEYCHAIN", "BUZZ_DATA_DIR",
                             "BUZZ_CLI_DIR", "BUZZ_PRIVATE_KEY"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("BUZZ_PRIVATE_KEY"), QString::fromStdString(m_alice->toHex()));
    env.insert(QStringLiteral("BUZZ_CLI_DIR"), m_home.path());
    process.setProcessEnvironment(env);
    std::unique_ptr<QSocketNotifier> notifier;
    if (terminal) {
        const QByteArray path = terminal->slavePath;
        process.setChildProcessModifier([path] {
            const int slave = ::open(path.constData(), O_RDWR);
            if (slave >= 0) {
                ::dup2(slave, STDOUT_FILENO);
                ::close(slave);
            }
        });
        notifier = std::make_unique<QSocketNotifier>(terminal->master, QSocketNotifier::Read);
        connect(notifier.get(), &QSocketNotifier::activated, this,
                [terminal] { terminal->drain(); });
    }
    arguments << QStringLiteral("--relay") << m_relay->httpUrl();
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(kCli, arguments);
    process.closeWriteChannel();
    if (!finished.wait(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        return {};
    }
    if (terminal)
        terminal->drain();
    return CliRun {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                   process.readAllStandardOutput(), process.readAllStandardError()};
}

void TestHostileCli::answerCanvasReadsWith(std::vector<nostr::Event> lies)
{
    HostileRelay *relay = m_relay.get();
    m_relay->setHttpScript(
        [relay,
         lies](const HostileRelay::Request &request) -> std::optional<HostileRelay::HttpAnswer> {
            bool canvas = false;
            for (const nostr::Filter &filter : request.filters)
                canvas = canvas || (filter.kinds && filter.kinds->front() == nostr::kinds::kCanvas);
            if (request.path != "/query" || !canvas)
                return std::nullopt;
            std::vector<nostr::Event> answer = lies;
            for (const nostr::Event &event : relay->honestAnswer(request.filters))
                answer.push_back(event);
            HostileRelay::HttpAnswer scripted;
            scripted.body = HostileRelay::eventsJson(answer);
            return scripted;
        });
}

// Item 11: `canvas get`, `canvas history` and `search` print only what its author signed for this
// channel; a newer forged revision "by" Carol, a foreign channel's canvas, one with no channel and
// a kind-1 note are dropped, and --trace says how many and why.
void TestHostileCli::forgedAndForeignRevisionsAreNeverPrinted()
{
    const nostr::Event genuine = revision(*m_alice, kChannel, now() - 100, "the real plan");
    m_relay->add(genuine);
    const nostr::Event forged = Forge::forgedSignature(
        revision(*m_bob, kChannel, now() - 5, "forged plan"), std::string(64, 'c'));
    const nostr::Event foreign = revision(*m_bob, kOtherChannel, now() - 7, "foreign plan");
    const nostr::Event noChannel =
        m_bob->signedEvent(nostr::kinds::kCanvas, now() - 8, {}, "plan without a channel");
    const nostr::Event note = m_bob->signedEvent(nostr::kinds::kTextNote, now() - 9,
                                                 {{"h", kChannel.toStdString()}}, "plan note");
    answerCanvasReadsWith({forged, foreign, noChannel, note});

    const CliRun get = run({QStringLiteral("canvas"), QStringLiteral("get"),
                            QStringLiteral("--channel"), kChannel, QStringLiteral("--trace")});
    QCOMPARE(get.exitCode, 0);
    QCOMPARE(get.out, QByteArray("the real plan"));
    QVERIFY2(get.err.contains(" dropped=4 ("), get.err.constData());
    QVERIFY(get.err.contains("invalid schnorr signature"));

    const CliRun history = run({QStringLiteral("canvas"), QStringLiteral("history"),
                                QStringLiteral("--channel"), kChannel});
    QCOMPARE(history.exitCode, 0);
    QCOMPARE(history.array().size(), 1);
    QCOMPARE(history.array().first().toObject().value(QLatin1String("event_id")).toString(),
             QString::fromStdString(genuine.id));

    const CliRun search = run(
        {QStringLiteral("search"), QStringLiteral("plan"), QStringLiteral("--channel"), kChannel});
    QCOMPARE(search.exitCode, 0);
    QCOMPARE(search.array().size(), 1);
    QCOMPARE(search.array().first().toObject().value(QLatin1String("content")).toString(),
             QStringLiteral("the real plan"));
}

// Item 12: `canvas get` against an answer that never ends stops once the answer passes the
// client's 64 MiB cap (it used to reach 1.5 GB in 10 s) and says so, exit code 2.
void TestHostileCli::endlessAnswerEndsWithAClearError()
{
    const QByteArray unit = QByteArray::fromStdString(
                                revision(*m_bob, kChannel, now(), std::string(60000, 'x')).toJson())
        + ',';
    m_relay->setHttpScript(
        [unit](const HostileRelay::Request &request) -> std::optional<HostileRelay::HttpAnswer> {
            if (request.path != "/query")
                return std::nullopt;
            HostileRelay::HttpAnswer answer;
            answer.body = "[";
            answer.endless = true;
            answer.endlessUnit = unit;
            return answer;
        });
    const CliRun get = run(
        {QStringLiteral("canvas"), QStringLiteral("get"), QStringLiteral("--channel"), kChannel});
    QCOMPARE(get.exitCode, 2);
    QVERIFY(get.out.isEmpty());
    QCOMPARE(get.error().value(QLatin1String("error")).toString(), QStringLiteral("relay"));
    QVERIFY2(
        get.error().value(QLatin1String("message")).toString().contains(QStringLiteral("64 MiB")),
        get.err.constData());
    QTRY_VERIFY_WITH_TIMEOUT(m_relay->streamsCut() == 1, 20000);
    qInfo("the relay got %lld MiB out before the client cut it off",
          m_relay->streamedBytes() >> 20);
    QVERIFY2(m_relay->streamedBytes() < 128 * 1024 * 1024,
             qPrintable(QString::number(m_relay->streamedBytes())));
}

// Item 12: `relay check` reads with the same cap. A NIP-11 document that never ends is cut off
// while it streams (before, the whole answer was read into memory first) and its row fails
// naming the limit.
void TestHostileCli::relayCheckCutsAnEndlessAnswer()
{
    m_relay->setHttpScript(
        [](const HostileRelay::Request &request) -> std::optional<HostileRelay::HttpAnswer> {
            if (request.path != "/")
                return std::nullopt;
            HostileRelay::HttpAnswer answer;
            answer.contentType = "application/nostr+json";
            answer.body = "{\"supported_nips\":[";
            answer.endless = true;
            answer.endlessUnit = QByteArray(64 * 1024, ' ');
            return answer;
        });
    const CliRun check =
        run({QStringLiteral("relay"), QStringLiteral("check"), QStringLiteral("--json")}, nullptr,
            180000);
    QCOMPARE(check.exitCode, 4);
    QJsonObject nip11;
    for (const QJsonValue &row :
         QJsonDocument::fromJson(check.out).object().value(QLatin1String("rows")).toArray()) {
        if (row.toObject().value(QLatin1String("id")).toString() == QLatin1String("nip11.document"))
            nip11 = row.toObject();
    }
    QCOMPARE(nip11.value(QLatin1String("status")).toString(), QStringLiteral("fail"));
    QVERIFY2(nip11.value(QLatin1String("observed")).toString().contains(QStringLiteral("64 MiB")),
             check.out.constData());
    QTRY_VERIFY_WITH_TIMEOUT(m_relay->streamsCut() == 1, 20000);
    qInfo("the relay got %lld MiB out before relay check cut it off",
          m_relay->streamedBytes() >> 20);
    QVERIFY2(m_relay->streamedBytes() < 128 * 1024 * 1024,
             qPrintable(QString::number(m_relay->streamedBytes())));
}

// Item 13: a canvas that retitles the window (OSC 0), writes the clipboard (OSC 52), moves the
// cursor with a C1 CSI and overwrites a line with a bare CR does none of it when `canvas get` or
// `search` print it on a terminal: each control character shows as `\u00XX` (search's JSON stays
// JSON). Into a pipe, `canvas get` prints the canvas byte for byte.
void TestHostileCli::terminalControlsAreEscapedOnATerminalOnly()
{
    const std::string content = "plan\x1b]0;pwned\x07 clip\x1b]52;c;cHduZWQ=\x07 csi\xc2\x9b"
                                "31m red\rfake line\r\nend\n";
    m_relay->add(revision(*m_bob, kChannel, now() - 10, content));
    const auto obeyable = [](const QByteArray &bytes) {
        return bytes.contains('\x1b') || bytes.contains('\x07') || bytes.contains("\xc2\x9b")
            || bytes.contains("\rfake");
    };

    Terminal terminal;
    QVERIFY(terminal.open());
    const QStringList get {QStringLiteral("canvas"), QStringLiteral("get"),
                           QStringLiteral("--channel"), kChannel};
    const CliRun shown = run(get, &terminal);
    QCOMPARE(shown.exitCode, 0);
    QVERIFY2(!obeyable(terminal.received), terminal.received.toPercentEncoding().constData());
    QVERIFY2(terminal.received.contains("plan\\u001b]0;pwned\\u0007 clip\\u001b]52;"),
             terminal.received.constData());
    QVERIFY(terminal.received.contains("csi\\u009b31m red\\u000dfake line\r\nend\n"));

    Terminal searchTerminal;
    QVERIFY(searchTerminal.open());
    const CliRun search = run(
        {QStringLiteral("search"), QStringLiteral("clip"), QStringLiteral("--channel"), kChannel},
        &searchTerminal);
    QCOMPARE(search.exitCode, 0);
    QVERIFY2(!obeyable(searchTerminal.received),
             searchTerminal.received.toPercentEncoding().constData());
    const QJsonArray hits = QJsonDocument::fromJson(searchTerminal.received).array();
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits.first().toObject().value(QLatin1String("content")).toString().toUtf8(),
             QByteArray::fromStdString(content));

    const CliRun piped = run(get);
    QCOMPARE(piped.exitCode, 0);
    QCOMPARE(piped.out, QByteArray::fromStdString(content));
}

void TestHostileCli::repeatingRelayCannotInflateHistory_data()
{
    QTest::addColumn<bool>("ignoreCursor");
    QTest::addColumn<bool>("warns");
    QTest::newRow("every page is the first page") << true << true;
    QTest::newRow("every row sent twice") << false << false;
}

// Item 15: 1,000 revisions, and a relay that answers every history page with the first one
// (ignoring the cursor), or sends every row twice. `canvas history --limit 3000` lists each of the
// 1,000 once; a page that brings nothing past the cursor ends the walk with a warning (it ended
// without one, as if history ended there; the issue saw 5,000 rows for 1,000 ids before revisions
// were verified).
void TestHostileCli::repeatingRelayCannotInflateHistory()
{
    QFETCH(bool, ignoreCursor);
    QFETCH(bool, warns);
    const qint64 first = now() - 5000;
    for (int i = 0; i < 1000; ++i)
        m_relay->add(revision(*m_alice, kChannel, first + i, "revision " + std::to_string(i)));
    HostileRelay *relay = m_relay.get();
    m_relay->setHttpScript([relay, ignoreCursor](const HostileRelay::Request &request)
                               -> std::optional<HostileRelay::HttpAnswer> {
        if (request.path != "/query")
            return std::nullopt;
        std::vector<nostr::Filter> filters = request.filters;
        for (nostr::Filter &filter : filters) {
            if (ignoreCursor) {
                filter.until.reset();
                filter.beforeId.reset();
            }
        }
        std::vector<nostr::Event> answer;
        for (const nostr::Event &event : relay->honestAnswer(filters)) {
            answer.push_back(event);
            if (!ignoreCursor)
                answer.push_back(event);
        }
        HostileRelay::HttpAnswer scripted;
        scripted.body = HostileRelay::eventsJson(answer);
        return scripted;
    });
    const CliRun history =
        run({QStringLiteral("canvas"), QStringLiteral("history"), QStringLiteral("--channel"),
             kChannel, QStringLiteral("--limit"), QStringLiteral("3000")});
    QCOMPARE(history.exitCode, 0);
    QSet<QString> ids;
    for (const QJsonValue &row : history.array())
        ids.insert(row.toObject().value(QLatin1String("event_id")).toString());
    QCOMPARE(history.array().size(), 1000);
    QCOMPARE(ids.size(), 1000);
    QCOMPARE(history.err.contains("warning: the relay repeated a page of history"), warns);
}

QTEST_MAIN(TestHostileCli)
#include "test_hostile_cli.moc"
