// load_bench (not a test): N WebSocket clients (default 100, then 500) run a mixed workload — 70 %
// reads (REQ limit 20 → EOSE → CLOSE), 30 % writes (EVENT → OK) — for a fixed time against a
// buzz-mock-relay PROCESS started here on 127.0.0.1:0 with a fresh --data. Prints throughput,
// p50/p99 latency, errors and the relay's peak RSS (VmHWM) as BENCH lines (tests/bench/README.md).
// Each client runs one request at a time with a 10 s per-request timeout; the run stops by itself.
//
//   load_bench [--seconds S] [--clients 100,500] [--relay PATH]

#include "RelayProcess.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Nip42.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <QWebSocket>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

using namespace buzz;

namespace {

constexpr int kRequestTimeoutMs = 10000;

struct Totals
{
    std::vector<double> readMs;
    std::vector<double> writeMs;
    int errors = 0;
    int connectFailures = 0;
};

class LoadClient : public QObject
{
public:
    LoadClient(int index, QUrl url, std::string relayUrl, Totals &totals, std::uint32_t seed)
        : m_index(index)
        , m_relayUrl(std::move(relayUrl))
        , m_totals(totals)
        , m_random(seed)
    {
        m_timeout.setSingleShot(true);
        connect(&m_timeout, &QTimer::timeout, this, [this] {
            ++m_totals.errors;
            next();
        });
        connect(&m_socket, &QWebSocket::textMessageReceived, this,
                [this](const QString &text) { onText(text); });
        connect(&m_socket, &QWebSocket::disconnected, this, [this] {
            if (!m_ready)
                ++m_totals.connectFailures;
            else if (!m_done)
                ++m_totals.errors;
            m_done = true;
        });
        m_socket.open(url);
    }

    bool ready() const { return m_ready; }
    bool done() const { return m_done; }
    void begin(qint64 deadlineMs)
    {
        m_deadlineMs = deadlineMs;
        next();
    }

private:
    void onText(const QString &text)
    {
        const auto frame = nlohmann::json::parse(text.toStdString(), nullptr, false);
        if (!frame.is_array() || frame.empty() || !frame[0].is_string())
            return;
        const std::string type = frame[0];
        if (type == "AUTH" && frame.size() > 1 && frame[1].is_string()) {
            const auto auth = nostr::nip42::buildAuthEvent(
                m_key, m_relayUrl, frame[1].get<std::string>(), QDateTime::currentSecsSinceEpoch());
            m_authId = auth.id;
            m_socket.sendTextMessage(QString::fromStdString("[\"AUTH\"," + auth.toJson() + "]"));
        } else if (type == "OK" && frame.size() > 2) {
            if (!m_ready && frame[1] == m_authId) {
                m_ready = frame[2] == true;
                if (!m_ready)
                    ++m_totals.connectFailures;
            } else if (m_pending == Pending::Write && frame[1] == m_eventId) {
                finish(frame[2] == true, m_totals.writeMs);
            }
        } else if (type == "EOSE" && m_pending == Pending::Read && frame.size() > 1
                   && frame[1] == m_subId) {
            m_socket.sendTextMessage(QString::fromStdString("[\"CLOSE\",\"" + m_subId + "\"]"));
            finish(true, m_totals.readMs);
        } else if (type == "CLOSED" && m_pending == Pending::Read && frame.size() > 1
                   && frame[1] == m_subId) {
            finish(false, m_totals.readMs);
        }
    }

    void finish(bool ok, std::vector<double> &latencies)
    {
        m_timeout.stop();
        m_pending = Pending::None;
        if (ok)
            latencies.push_back(m_clock.nsecsElapsed() / 1e6);
        else
            ++m_totals.errors;
        next();
    }

    void next()
    {
        m_pending = Pending::None;
        if (m_done || QDateTime::currentMSecsSinceEpoch() >= m_deadlineMs) {
            m_done = true;
            return;
        }
        m_clock.start();
        m_timeout.start(kRequestTimeoutMs);
        if (std::uniform_int_distribution<int>(0, 99)(m_random) < 30) {
            nostr::Event event;
            event.kind = 1;
            event.createdAt = QDateTime::currentSecsSinceEpoch();
            event.tags = {{"t", "load"}};
            event.content =
                "load client " + std::to_string(m_index) + " message " + std::to_string(++m_sent);
            m_key.signEvent(event);
            m_eventId = event.id;
            m_pending = Pending::Write;
            m_socket.sendTextMessage(QString::fromStdString("[\"EVENT\"," + event.toJson() + "]"));
        } else {
            m_subId = "r" + std::to_string(++m_sent);
            m_pending = Pending::Read;
            m_socket.sendTextMessage(QString::fromStdString(
                "[\"REQ\",\"" + m_subId + "\",{\"kinds\":[1],\"#t\":[\"load\"],\"limit\":20}]"));
        }
    }

    enum class Pending { None, Read, Write };
    int m_index;
    std::string m_relayUrl;
    Totals &m_totals;
    std::mt19937 m_random;
    nostr::SecretKey m_key = nostr::SecretKey::generate();
    QWebSocket m_socket;
    QTimer m_timeout;
    QElapsedTimer m_clock;
    std::string m_authId;
    std::string m_eventId;
    std::string m_subId;
    Pending m_pending = Pending::None;
    qint64 m_deadlineMs = 0;
    int m_sent = 0;
    bool m_ready = false;
    bool m_done = false;
};

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto at = std::min(values.size() - 1, std::size_t(p * double(values.size() - 1) + 0.5));
    return values[at];
}

// Peak resident set of a process in MiB (VmHWM), 0 when unreadable.
double peakRssMiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0;
}

// Waits (event loop) until `done` holds or `timeoutMs` passes.
template<class Done>
bool spinUntil(Done done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

struct PhaseResult
{
    double throughput = 0;
    bool ran = false;
};

PhaseResult runPhase(int clients, int seconds, const QString &binary, double anchorThroughput)
{
    QTemporaryDir dataDir;
    QProcess relay;
    const quint16 port =
        relay::test::startRelayProcess(relay, {binary}, {QStringLiteral("--data"), dataDir.path()});
    if (port == 0) {
        std::fprintf(stderr, "load_bench: %s did not start\n", qPrintable(binary));
        return {};
    }
    const std::string relayUrl = "ws://127.0.0.1:" + std::to_string(port);
    Totals totals;
    std::vector<std::unique_ptr<LoadClient>> pool;
    std::mt19937 seeds {std::uint32_t(clients)};
    for (int i = 0; i < clients; ++i) {
        pool.push_back(std::make_unique<LoadClient>(i, QUrl(QString::fromStdString(relayUrl)),
                                                    relayUrl, totals, seeds()));
        if (i % 50 == 49) // stagger the handshakes a little, as real clients arrive
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    spinUntil(
        [&] {
            return std::all_of(pool.begin(), pool.end(),
                               [](auto &c) { return c->ready() || c->done(); });
        },
        30000);
    const int connected =
        int(std::count_if(pool.begin(), pool.end(), [](auto &c) { return c->ready(); }));

    QElapsedTimer wall;
    wall.start();
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + seconds * 1000LL;
    for (auto &client : pool) {
        if (client->ready())
            client->begin(deadline);
    }
    spinUntil(
        [&] {
            return std::all_of(pool.begin(), pool.end(),
                               [](auto &c) { return c->done() || !c->ready(); });
        },
        seconds * 1000 + kRequestTimeoutMs + 5000);
    const double elapsed = wall.elapsed() / 1000.0;
    const double rss = peakRssMiB(relay.processId());
    pool.clear();
    relay.terminate();
    relay.waitForFinished(10000);

    std::vector<double> all = totals.readMs;
    all.insert(all.end(), totals.writeMs.begin(), totals.writeMs.end());
    const double throughput = double(all.size()) / elapsed;
    const int errors =
        totals.errors + (clients - connected); // a client that never got in is an error too
    std::printf("load: %d clients (%d connected), %.1f s, %zu reads, %zu writes, %d errors\n",
                clients, connected, elapsed, totals.readMs.size(), totals.writeMs.size(), errors);
    const std::string n = std::to_string(clients);
    if (anchorThroughput > 0)
        std::printf("BENCH load %s ws clients: throughput | %.0f req/s | target - | anchor load "
                    "100 ws clients %.0f | "
                    "ratio %.2f\n",
                    n.c_str(), throughput, anchorThroughput, throughput / anchorThroughput);
    else
        std::printf(
            "BENCH load %s ws clients: throughput | %.0f req/s | target - | anchor - | ratio -\n",
            n.c_str(), throughput);
    std::printf("BENCH load %s ws clients: p50 latency | %.2f ms | target - | anchor - | ratio -\n",
                n.c_str(), percentile(all, 0.50));
    std::printf("BENCH load %s ws clients: p99 latency | %.2f ms | target - | anchor - | ratio -\n",
                n.c_str(), percentile(all, 0.99));
    std::printf("BENCH load %s ws clients: p99 write (EVENT→OK) | %.2f ms | target - | anchor - | "
                "ratio -\n",
                n.c_str(), percentile(totals.writeMs, 0.99));
    std::printf("BENCH load %s ws clients: errors | %d | target <= 0 | anchor - | ratio -\n",
                n.c_str(), errors);
    std::printf(
        "BENCH load %s ws clients: relay peak RSS | %.1f MiB | target - | anchor - | ratio -\n",
        n.c_str(), rss);
    std::fflush(stdout);
    return {throughput, true};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption secondsOption("seconds", "Measured seconds per client count.", "S",
                                           "10");
    const QCommandLineOption clientsOption("clients", "Comma-separated client counts.", "LIST",
                                           "100,500");
    const QCommandLineOption relayOption(
        "relay", "buzz-mock-relay binary.", "PATH",
        QStringLiteral(BUZZ_BINARY_DIR "/app/mock-relay/buzz-mock-relay"));
    parser.addOptions({secondsOption, clientsOption, relayOption});
    parser.process(app);
    const int seconds = std::max(1, parser.value(secondsOption).toInt());
    std::printf("load: mixed workload 70%% REQ(limit 20)→EOSE, 30%% EVENT→OK, one request in "
                "flight per client; "
                "clients and relay share this machine's cores\n");
    double anchor = 0;
    bool ok = true;
    for (const QString &count : parser.value(clientsOption).split(',', Qt::SkipEmptyParts)) {
        const PhaseResult result =
            runPhase(count.toInt(), seconds, parser.value(relayOption), anchor);
        ok = ok && result.ran;
        if (anchor == 0)
            anchor = result.throughput;
    }
    return ok ? 0 : 1;
}
