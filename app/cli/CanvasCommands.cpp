#include "CanvasCommands.h"

#include "CliContext.h"
#include "canvas/CanvasService.h"
#include "canvas/ChannelService.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace buzz::cli {

using canvas::CanvasService;
using canvas::SaveOutcome;

namespace {

QJsonObject revisionJson(const canvas::CanvasRevision &revision)
{
    QJsonObject object {{QStringLiteral("event_id"), revision.eventId},
                        {QStringLiteral("author"), revision.author},
                        {QStringLiteral("created_at"), revision.createdAt}};
    if (revision.expectedRevision)
        object.insert(QStringLiteral("expected_revision"), *revision.expectedRevision);
    return object;
}

// Prints a save/restore outcome the way the real CLI does and returns the exit code.
int report(CliContext &context, const SaveOutcome &outcome, bool restore)
{
    const QString verb = restore ? QStringLiteral("restore") : QStringLiteral("save");
    switch (outcome.kind) {
    case SaveOutcome::Kind::SavedVerified:
    case SaveOutcome::Kind::SavedUnverified: {
        const bool verified = outcome.kind == SaveOutcome::Kind::SavedVerified;
        if (!verified)
            CliContext::warn(QStringLiteral("warning: %1 accepted, but it could not be verified "
                                            "against the latest revision just now")
                                 .arg(verb));
        CliContext::printJson(QJsonObject {{QStringLiteral("event_id"), outcome.saved->eventId},
                                           {QStringLiteral("accepted"), true},
                                           {QStringLiteral("message"), QString()},
                                           {QStringLiteral("verified"), verified}});
        return ExitCode::Ok;
    }
    case SaveOutcome::Kind::AlreadyCurrent:
        CliContext::warn(QStringLiteral("warning: revision %1 is already the current revision")
                             .arg(outcome.saved->eventId));
        CliContext::printJson(
            QJsonObject {{QStringLiteral("event_id"), outcome.saved->eventId},
                         {QStringLiteral("accepted"), true},
                         {QStringLiteral("message"), QStringLiteral("already-current")}});
        return ExitCode::Ok;
    case SaveOutcome::Kind::Conflict: {
        QString message = outcome.error && !outcome.error->message.isEmpty()
            ? outcome.error->message
            : QStringLiteral("conflict: canvas changed since it was loaded");
        if (outcome.theirs)
            message += QStringLiteral(" (current head %1)").arg(outcome.theirs->eventId);
        return context.error(QStringLiteral("conflict"), message, ExitCode::Conflict);
    }
    case SaveOutcome::Kind::Superseded:
        return context.error(
            QStringLiteral("conflict"),
            QStringLiteral("canvas %1 %2 was superseded by a concurrent write; it is preserved in "
                           "history — re-run against the current head if you still want it")
                .arg(verb, outcome.saved->eventId),
            ExitCode::Conflict);
    case SaveOutcome::Kind::OutcomeUnknown:
        return context.error(
            QStringLiteral("network"),
            QStringLiteral("outcome unknown for canvas %1 %2 — check `buzz-canvas-cli canvas "
                           "history` before retrying (%3)")
                .arg(verb, QString::fromStdString(outcome.pending->id),
                     outcome.error ? outcome.error->detail : QString()),
            ExitCode::Relay);
    case SaveOutcome::Kind::Error:
        break;
    }
    return context.relayError(*outcome.error);
}

// An empty answer does not say whether the channel exists: ask for its metadata (a writer read)
// so an unknown channel is "not found" (exit 1) instead of an empty canvas. Returns the exit
// code to stop with, or nothing when the channel exists.
QCoro::Task<std::optional<int>> failUnlessChannelExists(CliContext &context, QString channel)
{
    canvas::ChannelService channels(&context.connection());
    const auto info = co_await channels.info(channel);
    if (!info)
        co_return context.relayError(info.error());
    co_return std::nullopt;
}

bool isEventId(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    return hex.match(text).hasMatch();
}

} // namespace

QCoro::Task<int> CanvasCommands::run(CliContext &context)
{
    const QString sub = context.args().word(1);
    if (sub != QLatin1String("get") && sub != QLatin1String("set")
        && sub != QLatin1String("history") && sub != QLatin1String("restore"))
        co_return context.usageError(
            QStringLiteral("usage: canvas get|set|history|restore --channel UUID"));
    const QString channel = context.requireChannel();
    if (channel.isEmpty())
        co_return context.exitCode();
    if (!co_await context.loadIdentity(true) || !context.connect())
        co_return context.exitCode();
    if (sub == QLatin1String("get"))
        co_return co_await get(context, channel);
    if (sub == QLatin1String("set"))
        co_return co_await set(context, channel);
    if (sub == QLatin1String("history"))
        co_return co_await history(context, channel);
    co_return co_await restore(context, channel);
}

QCoro::Task<int> CanvasCommands::get(CliContext &context, QString channel)
{
    CanvasService service(&context.connection());
    client::Result<std::optional<canvas::CanvasRevision>> revision =
        std::optional<canvas::CanvasRevision>();
    if (const auto id = context.args().option(QStringLiteral("revision")))
        revision = co_await service.revision(channel, *id);
    else
        revision = co_await service.head(channel, canvas::ReadIntent::Display);
    if (!revision)
        co_return context.relayError(revision.error());
    if (!*revision) {
        if (const auto failed = co_await failUnlessChannelExists(context, channel))
            co_return *failed;
        CliContext::printRaw("null\n");
        co_return ExitCode::Ok;
    }
    CliContext::printRaw((*revision)->content.toUtf8());
    co_return ExitCode::Ok;
}

QCoro::Task<int> CanvasCommands::set(CliContext &context, QString channel)
{
    const auto contentOption = context.args().option(QStringLiteral("content"));
    if (!contentOption)
        co_return context.usageError(
            QStringLiteral("canvas set needs --content TEXT or --content - (stdin)"));
    QString content = *contentOption;
    if (content == QLatin1String("-")) {
        QFile input;
        if (!input.open(stdin, QIODevice::ReadOnly))
            co_return context.error(QStringLiteral("other"), QStringLiteral("cannot read stdin"),
                                    ExitCode::Other);
        content = QString::fromUtf8(input.readAll()); // untrimmed, byte for byte
    }
    canvas::SaveOptions options;
    options.unconditional = context.args().flag(QStringLiteral("unconditional"));
    if (const auto stated = context.args().option(QStringLiteral("expected-revision"))) {
        const QString value = stated->toLower();
        if (options.unconditional)
            co_return context.usageError(
                QStringLiteral("--expected-revision and --unconditional exclude each other"));
        if (value != QLatin1String("none") && !isEventId(value))
            co_return context.usageError(
                QStringLiteral(
                    "--expected-revision must be a 64-character hex event id or none, got ")
                + *stated);
        options.expectedRevision = value;
    }
    CanvasService service(&context.connection());
    std::optional<canvas::CanvasRevision> base;
    if (!options.unconditional && !options.expectedRevision) {
        // CAS against the head as it is now (the CLI has no edit session to snapshot).
        auto head = co_await service.head(channel, canvas::ReadIntent::Strong);
        if (!head)
            co_return context.relayError(head.error());
        base = *head;
    }
    const SaveOutcome outcome = co_await service.save(channel, base, content, options);
    co_return report(context, outcome, false);
}

QCoro::Task<int> CanvasCommands::history(CliContext &context, QString channel)
{
    int limit = 100;
    if (const auto text = context.args().option(QStringLiteral("limit"))) {
        bool ok = false;
        limit = text->toInt(&ok);
        if (!ok || limit < 1 || limit > 10000)
            co_return context.usageError(QStringLiteral("--limit must be between 1 and 10000"));
    }
    CanvasService service(&context.connection());
    QJsonArray revisions;
    std::optional<canvas::HistoryCursor> cursor;
    while (revisions.size() < limit) {
        const int pageSize = std::min(limit - static_cast<int>(revisions.size()),
                                      CanvasService::kMaxHistoryPageSize);
        auto page = co_await service.history(channel, cursor, pageSize);
        if (!page)
            co_return context.relayError(page.error());
        for (const canvas::CanvasRevision &revision : page->revisions)
            revisions.append(revisionJson(revision));
        if (page->stalled)
            CliContext::warn(QStringLiteral("warning: the relay repeated a page of history (its "
                                            "page after revision %1 held nothing older); the "
                                            "list stops after %2 revisions and may be incomplete")
                                 .arg(cursor->eventId)
                                 .arg(revisions.size()));
        if (!page->nextCursor)
            break;
        cursor = page->nextCursor;
    }
    if (revisions.isEmpty()) {
        if (const auto failed = co_await failUnlessChannelExists(context, channel))
            co_return *failed;
    }
    CliContext::printJson(revisions);
    co_return ExitCode::Ok;
}

QCoro::Task<int> CanvasCommands::restore(CliContext &context, QString channel)
{
    const auto revision = context.args().option(QStringLiteral("revision"));
    if (!revision)
        co_return context.usageError(QStringLiteral("canvas restore needs --revision ID"));
    CanvasService service(&context.connection());
    auto head = co_await service.head(channel, canvas::ReadIntent::Strong);
    if (!head)
        co_return context.relayError(head.error());
    if (!*head)
        co_return context.error(QStringLiteral("not_found"),
                                QStringLiteral("no canvas head found for channel ") + channel,
                                ExitCode::NotFound);
    const SaveOutcome outcome = co_await service.restore(channel, *revision, (*head)->eventId);
    co_return report(context, outcome, true);
}

} // namespace buzz::cli
