#include "CanvasReadChecks.h"

#include "RelayCheckCanvas.h"

#include <QElapsedTimer>

#include <algorithm>
#include <map>

namespace buzz::cli {

namespace {

constexpr int kAncestryWalkMax = 256; // the client's walk (CanvasService::kAncestryWalkMax)
constexpr int kReadYourWriteRounds = 5;

// The ids from the head back through expected-revision links, and how the walk ended.
struct Walk
{
    QStringList chain;
    QString end; // "none" (reached the first revision), or why it stopped
};

Walk walkFromHead(const std::vector<nostr::Event> &events)
{
    Walk walk;
    std::map<std::string, const nostr::Event *> byId;
    for (const nostr::Event &event : events)
        byId.emplace(event.id, &event);
    const nostr::Event *at = events.empty() ? nullptr : &events.front();
    while (at) {
        walk.chain << QString::fromStdString(at->id);
        if (walk.chain.size() > kAncestryWalkMax) {
            walk.end = QStringLiteral("a loop");
            break;
        }
        const std::string *expected = at->tagValue("expected-revision");
        if (!expected) {
            walk.end = QStringLiteral("an untagged revision");
            break;
        }
        if (*expected == "none") {
            walk.end = QStringLiteral("none");
            break;
        }
        std::string lower = *expected;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const auto next = byId.find(lower);
        if (next == byId.end()) {
            walk.end = QStringLiteral("%1, not in the answer").arg(QString::fromStdString(lower));
            break;
        }
        at = next->second;
    }
    if (events.empty())
        walk.end = QStringLiteral("an empty history");
    return walk;
}

} // namespace

QCoro::Task<void> CanvasReadChecks::run(RelayCheckContext &context)
{
    co_await ancestry(context);
    co_await readYourWrite(context);
}

QCoro::Task<void> CanvasReadChecks::ancestry(RelayCheckContext &context)
{
    const QString expected =
        QStringLiteral("after an accepted write, the writer's history walked from the head "
                       "through expected-revision reaches it and the first revision (none)");
    if (context.channel.isEmpty() || !context.head) {
        context.report.notApplicable(QStringLiteral("canvas.ancestry"), expected,
                                     QStringLiteral("no canvas in a throwaway channel"));
        co_return;
    }
    const CanvasWrite write =
        co_await RelayCheckCanvas::writeOnHead(context, "relay check: ancestry");
    if (!write.accepted) {
        context.report.fail(QStringLiteral("canvas.ancestry"), expected,
                            QStringLiteral("the write was refused: ") + write.answer.describe());
        co_return;
    }
    const HeadRead history = co_await RelayCheckCanvas::history(context, true, kAncestryWalkMax);
    const Walk walk = walkFromHead(history.events);
    const QString written = QString::fromStdString(write.event.id);
    const bool ok = history.answer.status == 200 && !walk.chain.isEmpty()
        && walk.chain.first() == written && walk.end == QLatin1String("none");
    QString observed = history.answer.status != 200
        ? history.answer.describe()
        : QStringLiteral("head %1, walk of %2 ended at %3")
              .arg(walk.chain.isEmpty() ? QStringLiteral("none") : walk.chain.first())
              .arg(walk.chain.size())
              .arg(walk.end);
    context.report.check(ok, QStringLiteral("canvas.ancestry"), expected, observed,
                         QStringLiteral("%1 revisions linked").arg(walk.chain.size()));
}

QCoro::Task<void> CanvasReadChecks::readYourWrite(RelayCheckContext &context)
{
    const QString expected =
        QStringLiteral("a strong head read right after each accepted write returns that write");
    if (context.channel.isEmpty() || !context.head) {
        context.report.notApplicable(QStringLiteral("canvas.read_your_write"), expected,
                                     QStringLiteral("no canvas in a throwaway channel"));
        co_return;
    }
    QString observed;
    std::vector<qint64> latencies;
    for (int round = 0; round < kReadYourWriteRounds && observed.isEmpty(); ++round) {
        const CanvasWrite write = co_await RelayCheckCanvas::writeOnHead(
            context, "relay check: read your write " + std::to_string(round));
        if (!write.accepted) {
            observed =
                QStringLiteral("write %1 was refused: %2").arg(round).arg(write.answer.describe());
            break;
        }
        QElapsedTimer timer;
        timer.start();
        const HeadRead head = co_await RelayCheckCanvas::head(context, true);
        latencies.push_back(timer.elapsed());
        if (head.answer.status != 200)
            observed = head.answer.describe();
        else if (head.id != QString::fromStdString(write.event.id))
            observed = QStringLiteral("write %1 was %2, the strong head read said %3")
                           .arg(round)
                           .arg(QString::fromStdString(write.event.id),
                                head.id.isEmpty() ? QStringLiteral("no canvas") : head.id);
    }
    std::sort(latencies.begin(), latencies.end());
    const QString figures = latencies.empty()
        ? QString()
        : QStringLiteral("%1 rounds, strong read median %2 ms")
              .arg(latencies.size())
              .arg(latencies[latencies.size() / 2]);
    context.report.check(observed.isEmpty(), QStringLiteral("canvas.read_your_write"), expected,
                         observed, figures);
}

} // namespace buzz::cli
