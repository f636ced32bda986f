// blame_bench: who last changed each line of a canvas with a 200-revision history by four
// authors, as History's Blame tab computes it (canvas::BlameService): cold (every history page
// read from the in-process relay over loopback, verified, then the line diffs), cached (the same
// revision again), after one more revision (one line diff on top of the cached blame), and the
// line diffs alone (the whole walk in memory, no I/O). Each figure is the median of the runs.
//   blame_bench [revisions] [lines]    defaults: 200 revisions, a 300-line canvas

#include "CanvasTestSupport.h"
#include "RelayTestFixture.h"
#include "canvas/BlameService.h"
#include "canvas/CanvasService.h"
#include "canvas/LineBlame.h"
#include "canvas/RevisionLineage.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace buzz;
using buzz::test::await;

namespace {

double median(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int revisions = argc > 1 ? std::max(2, std::atoi(argv[1])) : 200;
    const int lines = argc > 2 ? std::max(10, std::atoi(argv[2])) : 300;
    const int runs = 7;

    relay::test::RelayTestFixture::Options options;
    options.systemClock = true;
    relay::test::RelayTestFixture relay(options);
    if (!relay.isListening()) {
        std::fprintf(stderr, "relay did not start\n");
        return 1;
    }
    // Four authors take turns; their saves are stamped a second apart, ending before now (the
    // relay refuses a canvas stamped more than 300 s ahead of it).
    std::vector<std::unique_ptr<test::CanvasClient>> authors;
    qint64 clock = QDateTime::currentSecsSinceEpoch() - revisions - 10;
    for (int i = 0; i < 4; ++i) {
        authors.push_back(std::make_unique<test::CanvasClient>(relay.wsUrl()));
        authors.back()->service->setClock([&clock] { return clock; });
    }
    const QString channel =
        QString::fromStdString(relay.createChannel(authors.front()->identity, "blame"));

    // Each revision rewrites three lines at random and adds one, like a day of edits.
    QRandomGenerator random(31);
    QStringList text;
    for (int i = 0; i < lines; ++i)
        text << QStringLiteral("line %1 of the plan, as first written").arg(i);
    std::optional<canvas::CanvasRevision> head;
    std::vector<canvas::CanvasRevision> history; // newest first
    QElapsedTimer seeding;
    seeding.start();
    for (int r = 0; r < revisions; ++r) {
        if (r > 0) {
            for (int k = 0; k < 3; ++k) {
                const int at = int(random.bounded(quint32(text.size())));
                text[at] = QStringLiteral("line %1 rewritten in revision %2").arg(at).arg(r);
            }
            text.insert(int(random.bounded(quint32(text.size()))),
                        QStringLiteral("added in revision %1").arg(r));
        }
        ++clock;
        auto outcome = await(authors[std::size_t(r) % authors.size()]->service->save(
            channel, head, text.join(QLatin1Char('\n')) + QLatin1Char('\n')));
        if (outcome.kind != canvas::SaveOutcome::Kind::SavedVerified) {
            std::fprintf(stderr, "seeding revision %d failed: %s %s\n", r,
                         qPrintable(outcome.kindName()),
                         outcome.error ? qPrintable(outcome.error->detail) : "");
            return 1;
        }
        head = outcome.saved;
        history.insert(history.begin(), *head);
    }
    std::printf("blame_bench: %d revisions by %d authors, %d-line canvas (%d lines at the head), "
                "seeded in %.1f s\n",
                revisions, int(authors.size()), lines, int(text.size()),
                double(seeding.elapsed()) / 1000.0);

    canvas::CanvasService &reader = *authors.front()->service;
    std::vector<double> cold, cached, next, memory;
    int pages = 0, walked = 0;
    bool complete = true;
    for (int run = 0; run < runs; ++run) {
        canvas::BlameService blame(&reader);
        blame.setChannel(channel);
        QElapsedTimer timer;
        timer.start();
        auto result = await(blame.blame(*head));
        cold.push_back(msSince(timer));
        if (!result) {
            std::fprintf(stderr, "blame failed: %s\n", qPrintable(result.error().detail));
            return 1;
        }
        complete = complete && result->complete();
        pages = blame.pagesRead();
        walked = result->revisionsWalked;
        timer.start();
        auto again = await(blame.blame(*head));
        cached.push_back(msSince(timer));
        // One more revision on top (not saved: blamed as the session would see it arrive).
        canvas::CanvasRevision newer = *head;
        newer.eventId = QString(64, QLatin1Char('f'));
        newer.createdAt = head->createdAt + 1;
        newer.expectedRevision = head->eventId;
        newer.content = head->content + QStringLiteral("one more line\n");
        timer.start();
        auto more = await(blame.blame(newer));
        next.push_back(msSince(timer));
        if (!again || !more)
            return 1;

        // The line diffs alone: the whole walk over revisions already in memory.
        timer.start();
        canvas::LineBlame walk(*head);
        while (!walk.done()) {
            const auto parent = canvas::RevisionLineage::parentOf(history, walk.current(), false);
            if (parent.kind != canvas::RevisionLineage::Parent::Kind::Listed) {
                walk.finishAtRoot();
                break;
            }
            walk.stepTo(history[std::size_t(parent.row)]);
        }
        memory.push_back(msSince(timer));
    }

    std::printf("cold: %d history pages, %d revisions walked back, complete: %s\n", pages, walked,
                complete ? "yes" : "no");
    std::printf(
        "BENCH blame_cold_%d_revisions | %.1f ms | target <= 1000 ms | anchor - | ratio -\n",
        revisions, median(cold));
    std::printf("BENCH blame_line_diffs_%d_revisions | %.1f ms | target - | anchor "
                "blame_cold_%d_revisions %.1f | ratio %.2f\n",
                revisions, median(memory), revisions, median(cold), median(memory) / median(cold));
    std::printf("BENCH blame_cached | %.3f ms | target <= 1 ms | anchor - | ratio -\n",
                median(cached));
    std::printf("BENCH blame_one_more_revision | %.2f ms | target <= 50 ms | anchor - | ratio -\n",
                median(next));
    return complete ? 0 : 1;
}
