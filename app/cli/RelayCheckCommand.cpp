#include "RelayCheckCommand.h"

#include "AuthChecks.h"
#include "CanvasCasChecks.h"
#include "CanvasReadChecks.h"
#include "CliContext.h"
#include "ConsistencyChecks.h"
#include "LagChecks.h"
#include "LiveChecks.h"
#include "RelayCheckContext.h"
#include "net/client/RelaySocket.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QUuid>

namespace buzz::cli {

namespace {

constexpr std::chrono::milliseconds kAnswerTimeout {10000};

// Outside the coroutines: g++ 12 cannot keep a braced initializer list in a coroutine frame.
RelayCheckContext checkContext(RelayProbe &probe, client::RelayConnection &connection,
                               RelayCheckReport &report, std::optional<QString> adminToken)
{
    return RelayCheckContext {probe,          connection,   report,      {}, std::move(adminToken),
                              kAnswerTimeout, std::nullopt, std::nullopt};
}

nostr::Event createEvent(const RelayProbe &probe, const QString &id)
{
    const std::string name = "relay-check-"
        + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss")).toStdString();
    return probe.sign(nostr::kinds::kGroupCreate, RelayProbe::now(),
                      {{"h", id.toStdString()},
                       {"name", name},
                       {"visibility", "private"},
                       {"channel_type", "stream"},
                       {"about", "throwaway channel of buzz-canvas-cli relay check"}},
                      {});
}

nostr::Event deleteEvent(const RelayProbe &probe, const QString &channel)
{
    return probe.sign(nostr::kinds::kGroupDelete, RelayProbe::now(), {{"h", channel.toStdString()}},
                      {});
}

} // namespace

QCoro::Task<int> RelayCheckCommand::run(CliContext &context)
{
    if (context.args().word(1) != QLatin1String("check") || context.args().positional().size() > 2)
        co_return context.usageError(
            QStringLiteral("usage: relay check [--json] [--admin-token TOKEN]"));
    if (!co_await context.loadIdentity(true) || !context.connect())
        co_return context.exitCode();
    client::RelayConnection &connection = context.connection();
    RelayProbe probe(connection.httpBase(), connection.secretKey(), kAnswerTimeout);
    RelayCheckReport report;
    RelayCheckContext check = checkContext(probe, connection, report,
                                           context.args().option(QStringLiteral("admin-token")));

    co_await createChannel(check);
    co_await AuthChecks::run(check);
    co_await ConsistencyChecks::run(check);
    co_await CanvasCasChecks::run(check);
    co_await CanvasReadChecks::run(check);
    co_await LagChecks::run(check);
    co_await LiveChecks::run(check);
    co_await deleteChannel(check);
    connection.socket()->close();

    const QString relay = connection.relayUrl().toString();
    if (context.args().flag(QStringLiteral("json")))
        CliContext::printJson(report.toJson(relay, check.channel));
    else
        CliContext::printRaw(report.toText(relay, check.channel).toUtf8());
    const QStringList failed = report.failedIds();
    if (failed.isEmpty())
        co_return ExitCode::Ok;
    co_return context.error(QStringLiteral("other"),
                            QStringLiteral("relay check: %1 failed: %2")
                                .arg(failed.size())
                                .arg(failed.join(QStringLiteral(", "))),
                            ExitCode::Other);
}

QCoro::Task<void> RelayCheckCommand::createChannel(RelayCheckContext &check)
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces).toLower();
    const nostr::Event create = createEvent(check.probe, id);
    const ProbeAnswer answer = co_await check.probe.publish(create);
    const bool ok = answer.accepted();
    check.report.check(ok, QStringLiteral("channel.create"),
                       QStringLiteral("a private throwaway channel (kind 9007) is created"),
                       answer.describe(), ok ? id : QString());
    if (ok)
        check.channel = id;
}

QCoro::Task<void> RelayCheckCommand::deleteChannel(RelayCheckContext &check)
{
    const QString expected = QStringLiteral("the throwaway channel is deleted (kind 9008)");
    if (check.channel.isEmpty()) {
        check.report.notApplicable(QStringLiteral("channel.delete"), expected,
                                   QStringLiteral("no throwaway channel"));
        co_return;
    }
    const nostr::Event remove = deleteEvent(check.probe, check.channel);
    const ProbeAnswer answer = co_await check.probe.publish(remove);
    // Deleting is the relay's to allow: a refusal leaves the channel, it is no failure.
    if (answer.accepted())
        check.report.pass(QStringLiteral("channel.delete"), expected);
    else
        check.report.notApplicable(QStringLiteral("channel.delete"), expected,
                                   QStringLiteral("the relay kept it: ") + answer.describe());
}

} // namespace buzz::cli
