#include "LiveChecks.h"

#include "RelayCheckCanvas.h"
#include "net/client/RelaySocket.h"
#include "net/nostr/Kinds.h"

#include <QElapsedTimer>
#include <QSet>

#include <qcoro/qcorotimer.h>

#include <algorithm>
#include <memory>

namespace buzz::cli {

using client::RelaySocket;

namespace {

constexpr std::chrono::milliseconds kLivePoll {20};
constexpr qint64 kMinimumWaitMs = 10000;
constexpr qint64 kMarginMs = 5000;

struct Seen
{
    QSet<QString> ids;
};

QString subscriptionStateName(RelaySocket::SubscriptionState state)
{
    switch (state) {
    case RelaySocket::SubscriptionState::Pending:
        return QStringLiteral("pending");
    case RelaySocket::SubscriptionState::Live:
        return QStringLiteral("live");
    case RelaySocket::SubscriptionState::Resubscribing:
        return QStringLiteral("resubscribing");
    case RelaySocket::SubscriptionState::Refused:
        return QStringLiteral("refused");
    }
    return QStringLiteral("unknown");
}

// Outside the coroutine: g++ 12 cannot keep a braced initializer list in a coroutine frame.
std::vector<nostr::Filter> canvasSince(const QString &channel, std::int64_t since)
{
    nostr::Filter filter;
    filter.kinds = std::vector<int> {nostr::kinds::kCanvas};
    filter.tags['h'] = {channel.toStdString()};
    filter.since = since;
    filter.limit = 10;
    return {filter};
}

} // namespace

QCoro::Task<void> LiveChecks::run(RelayCheckContext &context)
{
    const QString id = QStringLiteral("live.convergence");
    const QString expected =
        QStringLiteral("a REQ sent right after a write gets it in its history, and a write made "
                       "once it is live arrives live");
    RelaySocket *socket = context.connection.socket();
    if (context.channel.isEmpty() || !context.head) {
        context.report.notApplicable(id, expected,
                                     QStringLiteral("no canvas in a throwaway channel"));
        co_return;
    }
    if (socket->state() != RelaySocket::State::Connected) {
        context.report.fail(
            id, expected, QStringLiteral("the WebSocket is not signed in: ") + socket->lastError());
        co_return;
    }
    // Behind a lagging replica the answer may take up to the lag measured on display reads.
    const qint64 waitMs =
        std::max(kMinimumWaitMs, 2 * context.routedLagMaxMs.value_or(0) + kMarginMs);

    const CanvasWrite before =
        co_await RelayCheckCanvas::writeOnHead(context, "relay check: before REQ");
    if (!before.accepted) {
        context.report.fail(id, expected,
                            QStringLiteral("the write was refused: ") + before.answer.describe());
        co_return;
    }
    const std::vector<nostr::Filter> filters = canvasSince(context.channel, before.event.createdAt);
    auto seen = std::make_shared<Seen>();
    QElapsedTimer timer;
    timer.start();
    const QString subscription = socket->subscribe(filters, QStringLiteral("relay_check_live"));
    const auto connection =
        QObject::connect(socket, &RelaySocket::eventReceived,
                         [seen, subscription](const QString &from, const nostr::Event &event) {
                             if (from == subscription)
                                 seen->ids.insert(QString::fromStdString(event.id));
                         });
    while (socket->subscriptionState(subscription) != RelaySocket::SubscriptionState::Live
           && timer.elapsed() < waitMs)
        co_await QCoro::sleepFor(kLivePoll);
    const bool live =
        socket->subscriptionState(subscription) == RelaySocket::SubscriptionState::Live;
    const QString first = QString::fromStdString(before.event.id);
    QString second;
    QString observed;
    qint64 liveAfterMs = -1;
    if (!live) {
        observed = QStringLiteral("the subscription is %1 after %2 ms%3")
                       .arg(subscriptionStateName(socket->subscriptionState(subscription)))
                       .arg(timer.elapsed())
                       .arg(socket->subscriptionError(subscription).isEmpty()
                                ? QString()
                                : QStringLiteral(": ") + socket->subscriptionError(subscription));
    } else {
        QElapsedTimer sinceWrite;
        sinceWrite.start();
        const CanvasWrite after =
            co_await RelayCheckCanvas::writeOnHead(context, "relay check: live");
        if (!after.accepted) {
            observed = QStringLiteral("the second write was refused: ") + after.answer.describe();
        } else {
            second = QString::fromStdString(after.event.id);
            while (!seen->ids.contains(second) && sinceWrite.elapsed() < waitMs)
                co_await QCoro::sleepFor(kLivePoll);
            if (seen->ids.contains(second))
                liveAfterMs = sinceWrite.elapsed();
        }
    }
    if (observed.isEmpty() && (!seen->ids.contains(first) || !seen->ids.contains(second))) {
        QStringList missing;
        if (!seen->ids.contains(first))
            missing << QStringLiteral("the write before the REQ (%1) was not in its history")
                           .arg(first);
        if (!seen->ids.contains(second))
            missing << QStringLiteral("the write once live (%1) did not arrive within %2 ms")
                           .arg(second)
                           .arg(waitMs);
        observed = missing.join(QStringLiteral("; "));
    }
    QObject::disconnect(connection);
    socket->unsubscribe(subscription);
    context.report.check(
        observed.isEmpty(), id, expected, observed,
        liveAfterMs >= 0 ? QStringLiteral("live %1 ms after its write was sent").arg(liveAfterMs)
                         : QString());
}

} // namespace buzz::cli
