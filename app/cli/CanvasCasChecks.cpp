#include "CanvasCasChecks.h"

#include "RelayCheckCanvas.h"
#include "net/nostr/Kinds.h"

namespace buzz::cli {

namespace {

const QString kChanged = QStringLiteral("conflict: canvas changed since it was loaded");
const QString kMissing = QStringLiteral("conflict: canvas revision does not exist");
const QString kNotAhead =
    QStringLiteral("conflict: canvas write does not supersede the current head");

bool conflict(const ProbeAnswer &answer, const QString &text)
{
    return answer.status == 409 && answer.errorText() == text;
}

QStringList rowIds()
{
    return {QStringLiteral("cas.missing_revision"), QStringLiteral("cas.first_write"),
            QStringLiteral("cas.extend"),           QStringLiteral("cas.none_on_existing"),
            QStringLiteral("cas.stale_base"),       QStringLiteral("cas.same_second_tie"),
            QStringLiteral("cas.replay_head"),      QStringLiteral("cas.head_unchanged")};
}

} // namespace

QCoro::Task<void> CanvasCasChecks::run(RelayCheckContext &context)
{
    RelayCheckReport &report = context.report;
    const QStringList ids = rowIds();
    if (context.channel.isEmpty()) {
        for (const QString &id : ids)
            report.notApplicable(id, QStringLiteral("canvas compare-and-swap"),
                                 QStringLiteral("no throwaway channel"));
        co_return;
    }
    RelayProbe &probe = context.probe;
    const std::int64_t now = RelayProbe::now();
    const std::string unknown(64, 'f');

    // Before any revision exists: an id names nothing.
    const ProbeAnswer missing = co_await probe.publish(
        RelayCheckCanvas::revision(context, now, unknown, "relay check: missing"));
    report.check(conflict(missing, kMissing), ids[0],
                 QStringLiteral("an expected-revision id on a channel with no canvas is 409 ")
                     + kMissing,
                 missing.describe());

    const nostr::Event first =
        RelayCheckCanvas::revision(context, now, "none", "relay check: first");
    const ProbeAnswer created = co_await probe.publish(first);
    report.check(created.accepted(), ids[1],
                 QStringLiteral("the first revision, expected-revision none, is accepted"),
                 created.describe());

    const nostr::Event second =
        RelayCheckCanvas::revision(context, now + 1, first.id, "relay check: second");
    const ProbeAnswer extended = co_await probe.publish(second);
    report.check(extended.accepted(), ids[2],
                 QStringLiteral("a revision based on the head, stamped a second later, is "
                                "accepted"),
                 extended.describe());
    context.head = extended.accepted() ? second : first;

    const ProbeAnswer none = co_await probe.publish(
        RelayCheckCanvas::revision(context, now + 2, "none", "relay check: none"));
    report.check(conflict(none, kChanged), ids[3],
                 QStringLiteral("expected-revision none on an existing canvas is 409 ") + kChanged,
                 none.describe());

    const ProbeAnswer stale = co_await probe.publish(
        RelayCheckCanvas::revision(context, now + 2, first.id, "relay check: stale"));
    report.check(conflict(stale, kChanged), ids[4],
                 QStringLiteral("a stale base (the revision before the head) is 409 ") + kChanged,
                 stale.describe());

    // Based on the head, in the head's second, with a larger id: it would not be shown as
    // current, so it must not become the head (docs/buzz-protocol.md §Current canvas).
    nostr::Event tie;
    for (int attempt = 0; tie.id.empty() || tie.id <= second.id; ++attempt)
        tie = RelayCheckCanvas::revision(context, second.createdAt, second.id,
                                         "relay check: tie " + std::to_string(attempt));
    const ProbeAnswer tied = co_await probe.publish(tie);
    report.check(conflict(tied, kNotAhead), ids[5],
                 QStringLiteral("a write on the head in its second with a larger id is 409 ")
                     + kNotAhead,
                 tied.describe());

    const ProbeAnswer replay = co_await probe.publish(second);
    const nlohmann::json replayBody = replay.json();
    const bool duplicate = replay.accepted()
        && QString::fromStdString(replayBody.value("message", std::string()))
               .startsWith(QLatin1String("duplicate:"));
    report.check(duplicate, ids[6],
                 QStringLiteral("the head sent again byte for byte is 200, accepted, "
                                "\"duplicate:\" (no check, no conflict)"),
                 replay.describe());

    const HeadRead head = co_await RelayCheckCanvas::head(context, true);
    report.check(head.answer.status == 200 && head.id == QString::fromStdString(second.id), ids[7],
                 QStringLiteral("after the refusals the writer's head is still the last accepted "
                                "revision"),
                 head.answer.status == 200
                     ? QStringLiteral("head %1, expected %2")
                           .arg(head.id.isEmpty() ? QStringLiteral("none") : head.id,
                                QString::fromStdString(second.id))
                     : head.answer.describe());
}

} // namespace buzz::cli
