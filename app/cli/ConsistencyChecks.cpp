#include "ConsistencyChecks.h"

#include "net/nostr/Kinds.h"

namespace buzz::cli {

namespace {

constexpr int kStrongReads = 5;

nlohmann::json canvasFilter(const RelayCheckContext &context, const char *consistency)
{
    nlohmann::json filter = {{"kinds", {nostr::kinds::kCanvas}}, {"limit", 1}};
    if (!context.channel.isEmpty())
        filter["#h"] = {context.channel.toStdString()};
    if (consistency)
        filter["consistency"] = consistency;
    return nlohmann::json::array({filter});
}

} // namespace

QCoro::Task<void> ConsistencyChecks::run(RelayCheckContext &context)
{
    RelayCheckReport &report = context.report;
    // Several strong reads: one served by a replica is enough to fail the route row.
    ProbeAnswer first;
    QStringList routes;
    bool allAnswered = true;
    QString notWriter;
    for (int i = 0; i < kStrongReads; ++i) {
        const ProbeAnswer answer = co_await context.probe.query(canvasFilter(context, "strong"));
        if (i == 0)
            first = answer;
        allAnswered = allAnswered && answer.status == 200;
        if (answer.status != 200 && first.status == 200)
            first = answer;
        if (!answer.route.isEmpty()) {
            routes << answer.route;
            if (!answer.route.startsWith(QLatin1String("writer")) && notWriter.isEmpty())
                notWriter = answer.route;
        }
    }
    report.check(allAnswered, QStringLiteral("consistency.strong"),
                 QStringLiteral("a filter with \"consistency\":\"strong\" is answered 200"),
                 first.describe());

    const ProbeAnswer other = co_await context.probe.query(canvasFilter(context, "eventual"));
    report.check(other.status == 400, QStringLiteral("consistency.invalid"),
                 QStringLiteral("\"consistency\":\"eventual\" (any value but strong) is a 400"),
                 other.describe());

    const QString expected =
        QStringLiteral("where the relay sends X-Buzz-Read-Route, every strong read was served "
                       "by the writer");
    if (routes.isEmpty()) {
        report.notApplicable(QStringLiteral("consistency.strong_route"), expected,
                             QStringLiteral("the relay does not report the route of a read"));
    } else {
        report.check(notWriter.isEmpty(), QStringLiteral("consistency.strong_route"), expected,
                     QStringLiteral("a strong read answered with X-Buzz-Read-Route: ") + notWriter,
                     QStringLiteral("%1 strong reads: %2").arg(routes.size()).arg(routes.first()));
    }
}

} // namespace buzz::cli
