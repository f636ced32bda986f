// buzz-mock-relay: parse options and environment, set the relay up (RelayHost), print the
// listening line, exec.

#include "BuzzVersion.h"
#include "app/mock-relay/RelayConfig.h"
#include "app/mock-relay/TransferCommand.h"
#include "net/nostr/Keys.h"
#include "relay/RelayHost.h"

#include <QCoreApplication>
#include <QDir>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace buzz;

namespace {

int g_signalFds[2] = {-1, -1};

void onTerminationSignal(int)
{
    const char byte = 1;
    // Only async-signal-safe work here: wake the event loop through the socket pair.
    [[maybe_unused]] const auto written = ::write(g_signalFds[0], &byte, 1);
}

// SIGINT/SIGTERM → QCoreApplication::quit() on the main thread, so the server stops cleanly and
// the store closes its files.
bool installShutdownSignals(QCoreApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return false;
    auto *notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [notifier] {
        notifier->setEnabled(false);
        char byte = 0;
        [[maybe_unused]] const auto got = ::read(g_signalFds[1], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(SIGINT, &action, nullptr) == 0
        && ::sigaction(SIGTERM, &action, nullptr) == 0;
}

int fail(const std::string &message)
{
    std::fprintf(stderr, "buzz-mock-relay: %s\n", message.c_str());
    return 1;
}

// A relay holds a descriptor per connection: take the whole hard limit, not the 1 024 soft limit
// a login shell starts with (systemd's advice for programs that need many). The listener still
// keeps within what it gets (GuardedTcpServer::descriptorBudget).
void raiseDescriptorLimit()
{
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("buzz-mock-relay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BUZZ_VERSION_FULL));

    if (relay::TransferCommand::matches(app.arguments()))
        return relay::TransferCommand::run(app.arguments(),
                                           QProcessEnvironment::systemEnvironment());
    auto parsed = relay::RelayConfig::fromArguments(app.arguments(),
                                                    QProcessEnvironment::systemEnvironment());
    if (!parsed)
        return fail(parsed.error() + " (see --help)");
    if (parsed->action == relay::RelayConfig::Action::ShowHelp) {
        std::fputs(relay::RelayConfig::helpText().toUtf8().constData(), stdout);
        std::fputs(relay::TransferCommand::helpText().toUtf8().constData(), stdout);
        return 0;
    }
    if (parsed->action == relay::RelayConfig::Action::ShowVersion) {
        std::printf("buzz-mock-relay %s\n", BUZZ_VERSION_FULL);
        return 0;
    }
    const relay::RelayConfig &config = parsed->config;
    raiseDescriptorLimit();

    std::string relaySecretHex;
    if (config.relayKey) {
        auto key = nostr::SecretKey::parse(*config.relayKey);
        if (!key)
            return fail(key.error()); // names the problem, never echoes the key
        relaySecretHex = key->toHex();
    } else {
        relaySecretHex = nostr::SecretKey::generate().toHex();
    }

    relay::RelayHost::Config setup;
    if (config.dataDir)
        setup.engine.dataDir = config.dataDir->toStdString();
    setup.engine.databaseUrl = config.databaseUrl;
    setup.engine.readDatabaseUrl = config.readDatabaseUrl;
    setup.engine.relaySecretKeyHex = relaySecretHex;
    setup.engine.replicas = config.replicas;
    setup.engine.replicaLagMs = config.replicaLagMs;
    setup.engine.readBudgetMs = config.readBudgetMs;
    setup.engine.readPoolSize = config.readPoolSize;
    setup.server.relayUrl = config.relayUrl.value_or(std::string());
    setup.server.communities = config.communities;
    setup.server.acceptDevPubkeyHeader = config.devPubkeyHeader;
    setup.server.requireRelayMembership = config.requireRelayMembership;
    setup.server.relayMembers = config.relayMembers;
    setup.server.maxConnections = config.maxConnections;
    setup.server.maxRelayOutboundBytes = std::size_t(config.maxOutboundMiB) * 1024 * 1024;
    setup.server.httpLimits = config.httpLimits;
    setup.server.adminToken = config.adminToken.value_or(std::string());
    setup.seedDemo = config.seed.has_value();
    relay::RelayHost relay(std::move(setup));
    if (!relay.isOpen() || !relay.start(config.listen))
        return fail(relay.errorString().toStdString());

    if (!installShutdownSignals(app))
        return fail("cannot install signal handlers");

    std::fprintf(stderr, "buzz-mock-relay: %s\n", config.routingSummary().toUtf8().constData());
    const QString host = config.listen.left(config.listen.lastIndexOf(QLatin1Char(':')));
    std::printf("listening http://%s:%u\n", host.toUtf8().constData(), unsigned(relay.port()));
    std::fflush(stdout);

    const int status = QCoreApplication::exec();
    relay.stop();
    return status;
}
