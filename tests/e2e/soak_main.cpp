// buzz-soak: Jepsen-style consistency soak. K clients — each the real CanvasService over
// real HTTP — edit the same canvases through an in-process relay (RelayHost) whose
// replicas are paused, resumed and lagged at random while the routing budget changes; clients
// sign with clocks skewed by up to ±900 s, send backdated writes and soft-delete revisions. Every
// few seconds one client pages a channel's history through routed reads. At the end the checker
// reads the writer's history and verifies every reported outcome (SoakChecker).
//
//   buzz-soak --seconds N [--clients K] [--channels C] [--replicas R] [--seed S] [--report FILE]
//             [--database-url URL [--read-database-url URL]]   (PostgreSQL: the standby is the
//             one replica; faults pause it with pg_wal_replay_pause() and delay its replay)
// Exit status: 0 when there is no anomaly, 1 on any anomaly, 2 on setup failure.

#include "SoakChecker.h"
#include "SoakClient.h"
#include "SoakFaults.h"
#include "SoakReport.h"

#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"
#include "relay/RelayHost.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QTimer>
#include <QUuid>

#include <cstdio>
#include <memory>
#include <random>

using namespace buzz;
using namespace buzz::soak;

namespace {

QCoro::Task<> finalPaging(std::vector<std::unique_ptr<SoakClient>> &clients, QStringList channels,
                          QCoreApplication &app)
{
    for (int i = 0; i < channels.size(); ++i)
        co_await clients[std::size_t(i % int(clients.size()))]->pageChannel(channels.at(i));
    app.quit();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption secondsOption("seconds", "How long the clients edit.", "N", "30");
    const QCommandLineOption clientsOption("clients", "Concurrent CanvasService clients.", "K",
                                           "6");
    const QCommandLineOption channelsOption("channels", "Canvases they share.", "C", "3");
    const QCommandLineOption replicasOption("replicas", "Read replicas.", "R", "2");
    const QCommandLineOption seedOption("seed", "Random seed (0 = from the clock).", "S", "0");
    const QCommandLineOption reportOption("report", "Write a Markdown report here.", "FILE");
    const QCommandLineOption databaseUrlOption(
        "database-url", "The relay's writer on PostgreSQL (instead of SQLite).", "URL");
    const QCommandLineOption readDatabaseUrlOption(
        "read-database-url", "With --database-url: its streaming standby as the replica.", "URL");
    parser.addOptions({databaseUrlOption, readDatabaseUrlOption});
    parser.addOptions(
        {secondsOption, clientsOption, channelsOption, replicasOption, seedOption, reportOption});
    parser.process(app);
    SoakConfig config;
    config.seconds = parser.value(secondsOption).toInt();
    config.clients = parser.value(clientsOption).toInt();
    config.channels = parser.value(channelsOption).toInt();
    config.replicas = parser.value(replicasOption).toInt();
    config.seed = parser.value(seedOption).toUInt();
    if (config.seed == 0)
        config.seed = std::uint32_t(QDateTime::currentMSecsSinceEpoch());
    if (config.seconds <= 0 || config.clients <= 0 || config.channels <= 0 || config.replicas < 0) {
        std::fprintf(stderr, "buzz-soak: --seconds, --clients and --channels must be positive\n");
        return 2;
    }

    relay::RelayHost::Config setup;
    setup.engine.replicas = config.replicas;
    setup.engine.replicaLagMs = 0;
    setup.engine.readBudgetMs = 5000; // display reads do go to (lagging) replicas
    if (parser.isSet(databaseUrlOption)) {
        setup.engine.databaseUrl = parser.value(databaseUrlOption).toStdString();
        setup.engine.readDatabaseUrl = parser.value(readDatabaseUrlOption).toStdString();
        setup.engine.replicas = 0; // the standby, when given, is the one replica
        config.replicas = setup.engine.readDatabaseUrl.empty() ? 0 : 1;
    }
    relay::RelayHost host(std::move(setup));
    if (!host.isOpen() || !host.start()) {
        std::fprintf(stderr, "buzz-soak: relay did not start: %s\n",
                     qPrintable(host.errorString()));
        return 2;
    }
    relay::RelayEngine &engine = host.engine();
    relay::RelayServer &server = host.server();

    // The channels: open, so every soak identity may write (created by an owner over the engine).
    // More are added during the run so far-behind clocks get first saves (see SoakClient.h).
    const auto owner = nostr::SecretKey::generate();
    QStringList channels;
    auto addChannel = [&] {
        const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces).toLower();
        const nostr::Event create =
            owner.signedEvent(nostr::kinds::kGroupCreate, QDateTime::currentSecsSinceEpoch(),
                              {{"h", id.toStdString()},
                               {"name", "soak-" + std::to_string(channels.size())},
                               {"visibility", "open"}});
        const relay::RequestContext context {relay::RelayServer::kDefaultCommunity,
                                             owner.publicKeyHex(), relay::Transport::Http};
        const auto created = engine.ingest(create, context);
        if (!created.accepted()) {
            std::fprintf(stderr, "buzz-soak: channel create refused: %s\n",
                         created.message.c_str());
            return false;
        }
        channels.push_back(id);
        return true;
    };
    for (int i = 0; i < config.channels; ++i) {
        if (!addChannel())
            return 2;
    }
    QTimer channelTimer;
    QObject::connect(&channelTimer, &QTimer::timeout, [&] { addChannel(); });
    channelTimer.start(3000);

    SoakLedger ledger;
    std::mt19937 random(config.seed);
    std::vector<std::unique_ptr<SoakClient>> clients;
    std::vector<QCoro::Task<>> runs;
    const QUrl relayUrl(server.url());
    for (int i = 0; i < config.clients; ++i) {
        // Every third client's clock is 2–15 minutes behind (its stamps are far older than rows
        // committed before them); the others are within ±50 s. CanvasService refuses to extend a
        // head more than 60 s ahead of its own clock, so a far-behind client mostly makes first
        // saves on new canvases and reports Error elsewhere (counted, not an anomaly).
        const qint64 skew = i % 3 == 0 ? std::uniform_int_distribution<int>(-900, -120)(random)
                                       : std::uniform_int_distribution<int>(-50, 50)(random);
        config.skews.push_back(skew);
        clients.push_back(
            std::make_unique<SoakClient>(i, relayUrl, channels, skew, ledger, random()));
    }
    for (auto &client : clients)
        runs.push_back(client->run());

    SoakFaults faults(*engine.replicaTier(), ledger, random());
    faults.start();

    // Routed paging while everything churns.
    std::vector<QCoro::Task<>> pagings;
    QTimer pagingTimer;
    int pagingRound = 0;
    QObject::connect(&pagingTimer, &QTimer::timeout, [&] {
        SoakClient &client = *clients[std::size_t(pagingRound % int(clients.size()))];
        pagings.push_back(client.pageChannel(channels.at(pagingRound % int(channels.size()))));
        ++pagingRound;
    });
    pagingTimer.start(1500);

    QElapsedTimer elapsed;
    elapsed.start();
    QTimer::singleShot(config.seconds * 1000, &app, [&] {
        pagingTimer.stop();
        channelTimer.stop();
        for (auto &client : clients)
            client->stop();
    });
    // Done when every client loop has returned; then one last paging pass over every channel with
    // the faults still active, then everything settles for the checker.
    int running = int(clients.size());
    bool finalPagingDone = false;
    auto finishIfDone = [&] {
        if (running > 0 || finalPagingDone)
            return;
        finalPagingDone = true;
        pagings.push_back(finalPaging(clients, channels, app));
    };
    for (auto &client : clients) {
        QObject::connect(client.get(), &SoakClient::finished, &app, [&] {
            --running;
            finishIfDone();
        });
    }
    // A client that never finishes (hung request) is itself a finding; give up after 60 s more.
    QTimer::singleShot((config.seconds + 60) * 1000, &app, [&] {
        config.hung = true;
        app.quit();
    });
    app.exec();
    faults.stop();
    const double ranSeconds = elapsed.elapsed() / 1000.0;

    SoakChecker checker(engine, relay::RelayServer::kDefaultCommunity, owner.publicKeyHex());
    SoakCounts counts = checker.check(ledger, channels);
    if (config.hung)
        counts.anomalies.push_back(
            QStringLiteral("a client loop did not finish within 60 s of the stop"));
    const QString report = soakReport(config, ledger, counts, ranSeconds);
    std::fputs(qPrintable(report), stdout);
    if (parser.isSet(reportOption) && !writeReport(parser.value(reportOption), report)) {
        std::fprintf(stderr, "buzz-soak: cannot write %s\n",
                     qPrintable(parser.value(reportOption)));
        return 2;
    }
    server.stop();
    return counts.anomalies.isEmpty() ? 0 : 1;
}
