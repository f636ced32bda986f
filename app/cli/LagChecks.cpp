#include "LagChecks.h"

#include "RelayCheckCanvas.h"

#include <QElapsedTimer>
#include <QMap>

#include <qcoro/qcorotimer.h>

#include <algorithm>
#include <cmath>

namespace buzz::cli {

namespace {

constexpr int kSamples = 8;
constexpr std::chrono::milliseconds kLagPoll {25};
// The relay's budget is at most 30 s (docs/buzz-protocol.md §Read consistency); past that a
// write that is still not visible never will be by that rule.
constexpr qint64 kVisibleWithinMs = 35000;
// Between the replica's proof and what a poll sees: its heartbeat interval (500 ms), the poll
// and a loaded machine's request time.
constexpr qint64 kBudgetSlackMs = 2000;

// Nearest-rank percentile of a sorted list.
qint64 percentile(const std::vector<qint64> &sorted, double q)
{
    const auto rank = static_cast<std::size_t>(std::ceil(q * double(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

} // namespace

QCoro::Task<void> LagChecks::run(RelayCheckContext &context)
{
    const QString expected =
        QStringLiteral("each write shows on a display read (routed) within %1 s; p50/p99 of the "
                       "time it took")
            .arg(kVisibleWithinMs / 1000);
    if (context.channel.isEmpty() || !context.head) {
        context.report.notApplicable(QStringLiteral("routed.lag"), expected,
                                     QStringLiteral("no canvas in a throwaway channel"));
        context.report.notApplicable(QStringLiteral("routed.within_budget"),
                                     QStringLiteral("the routed lag stays within the budget"),
                                     QStringLiteral("no canvas in a throwaway channel"));
        co_return;
    }
    std::vector<qint64> lags;
    QMap<QString, int> routes;
    QString observed;
    for (int sample = 0; sample < kSamples && observed.isEmpty(); ++sample) {
        const CanvasWrite write = co_await RelayCheckCanvas::writeOnHead(
            context, "relay check: routed lag " + std::to_string(sample));
        if (!write.accepted) {
            observed =
                QStringLiteral("write %1 was refused: %2").arg(sample).arg(write.answer.describe());
            break;
        }
        const QString id = QString::fromStdString(write.event.id);
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            const HeadRead head = co_await RelayCheckCanvas::head(context, false);
            routes[head.answer.route.section(QLatin1Char(';'), 0, 0).trimmed()] += 1;
            if (head.answer.status != 200) {
                observed = head.answer.describe();
                break;
            }
            if (head.id == id) {
                lags.push_back(timer.elapsed());
                break;
            }
            if (timer.elapsed() > kVisibleWithinMs) {
                observed = QStringLiteral("write %1 (%2) not on a display read after %3 ms; it "
                                          "showed %4")
                               .arg(sample)
                               .arg(id)
                               .arg(timer.elapsed())
                               .arg(head.id.isEmpty() ? QStringLiteral("no canvas") : head.id);
                break;
            }
            co_await QCoro::sleepFor(kLagPoll);
        }
    }
    QString figures;
    std::sort(lags.begin(), lags.end());
    if (!lags.empty()) {
        QStringList served;
        for (auto it = routes.cbegin(); it != routes.cend(); ++it)
            served << QStringLiteral("%1 %2")
                          .arg(it.key().isEmpty() ? QStringLiteral("unreported") : it.key())
                          .arg(it.value());
        figures = QStringLiteral("p50 %1 ms, p99 %2 ms over %3 writes; display reads: %4")
                      .arg(percentile(lags, 0.5))
                      .arg(percentile(lags, 0.99))
                      .arg(lags.size())
                      .arg(served.join(QStringLiteral(", ")));
        context.routedLagMaxMs = lags.back();
    }
    context.report.check(observed.isEmpty(), QStringLiteral("routed.lag"), expected, observed,
                         figures);
    if (observed.isEmpty())
        co_await withinBudget(context, percentile(lags, 0.99));
    else
        context.report.notApplicable(QStringLiteral("routed.within_budget"),
                                     QStringLiteral("the routed lag stays within the budget"),
                                     QStringLiteral("no lag measured"));
}

QCoro::Task<void> LagChecks::withinBudget(RelayCheckContext &context, qint64 p99Ms)
{
    const QString expected =
        QStringLiteral("p99 of the routed lag is within the relay's staleness budget (GET "
                       "/admin/state budget_ms) + %1 ms")
            .arg(kBudgetSlackMs);
    if (!context.adminToken) {
        context.report.notApplicable(QStringLiteral("routed.within_budget"), expected,
                                     QStringLiteral("needs --admin-token"));
        co_return;
    }
    const ProbeAnswer state = co_await context.probe.get(
        QStringLiteral("/admin/state"), QByteArrayLiteral("application/json"),
        QByteArrayLiteral("Bearer ") + context.adminToken->toUtf8());
    const nlohmann::json body = state.json();
    if (state.status != 200 || !body.is_object() || !body.contains("budget_ms")
        || !body["budget_ms"].is_number_integer()) {
        context.report.notApplicable(QStringLiteral("routed.within_budget"), expected,
                                     QStringLiteral("no budget from the admin API: ")
                                         + state.describe());
        co_return;
    }
    const qint64 budget = body["budget_ms"].get<qint64>();
    context.report.check(p99Ms <= budget + kBudgetSlackMs, QStringLiteral("routed.within_budget"),
                         expected, QStringLiteral("p99 %1 ms, budget %2 ms").arg(p99Ms).arg(budget),
                         QStringLiteral("budget %1 ms").arg(budget));
}

} // namespace buzz::cli
