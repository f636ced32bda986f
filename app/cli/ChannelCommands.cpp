#include "ChannelCommands.h"

#include "CliContext.h"
#include "canvas/ChannelService.h"
#include "canvas/SearchClient.h"

#include <QJsonArray>
#include <QJsonObject>

namespace buzz::cli {

namespace {

QJsonObject channelJson(const canvas::ChannelInfo &info)
{
    return QJsonObject {
        {QStringLiteral("id"), info.id},
        {QStringLiteral("name"), info.name},
        {QStringLiteral("about"), info.about},
        {QStringLiteral("type"), info.type},
        {QStringLiteral("visibility"),
         info.isPrivate ? QStringLiteral("private") : QStringLiteral("open")},
        {QStringLiteral("archived"), info.archived},
        {QStringLiteral("member"), info.isMember},
        {QStringLiteral("role"), info.myRole.isEmpty() ? QJsonValue() : QJsonValue(info.myRole)},
        {QStringLiteral("can_edit_canvas"), info.canEditCanvas()}};
}

} // namespace

QCoro::Task<int> ChannelCommands::channels(CliContext &context)
{
    const QString sub = context.args().word(1);
    if (sub != QLatin1String("list") && sub != QLatin1String("create")
        && sub != QLatin1String("join") && sub != QLatin1String("leave")
        && sub != QLatin1String("info"))
        co_return context.usageError(QStringLiteral("usage: channels list|create|join|leave|info"));
    QString channel;
    if (sub == QLatin1String("join") || sub == QLatin1String("leave")
        || sub == QLatin1String("info")) {
        channel = context.requireChannel();
        if (channel.isEmpty())
            co_return context.exitCode();
    }
    const auto name = context.args().option(QStringLiteral("name"));
    if (sub == QLatin1String("create") && (!name || name->trimmed().isEmpty()))
        co_return context.usageError(QStringLiteral("channels create needs --name NAME"));
    if (!co_await context.loadIdentity(true) || !context.connect())
        co_return context.exitCode();
    canvas::ChannelService service(&context.connection());

    if (sub == QLatin1String("list")) {
        auto list = co_await service.list();
        if (!list)
            co_return context.relayError(list.error());
        QJsonArray array;
        for (const canvas::ChannelInfo &info : *list)
            array.append(channelJson(info));
        CliContext::printJson(array);
        co_return ExitCode::Ok;
    }
    if (sub == QLatin1String("info")) {
        auto info = co_await service.info(channel);
        if (!info)
            co_return context.relayError(info.error());
        CliContext::printJson(channelJson(*info));
        co_return ExitCode::Ok;
    }
    if (sub == QLatin1String("create")) {
        canvas::CreateChannelRequest request;
        request.name = *name;
        request.about = context.args().option(QStringLiteral("about")).value_or(QString());
        request.isPrivate = context.args().flag(QStringLiteral("private"));
        request.type =
            context.args().option(QStringLiteral("type")).value_or(QStringLiteral("stream"));
        if (request.type != QLatin1String("stream") && request.type != QLatin1String("forum"))
            co_return context.usageError(QStringLiteral("--type must be stream or forum"));
        auto created = co_await service.create(request);
        if (!created)
            co_return context.relayError(created.error());
        CliContext::printJson(channelJson(*created));
        co_return ExitCode::Ok;
    }
    auto done = sub == QLatin1String("join") ? co_await service.join(channel)
                                             : co_await service.leave(channel);
    if (!done)
        co_return context.relayError(done.error());
    CliContext::printJson(
        QJsonObject {{QStringLiteral("ok"), true}, {QStringLiteral("channel"), channel}});
    co_return ExitCode::Ok;
}

QCoro::Task<int> ChannelCommands::search(CliContext &context)
{
    const QString query = context.args().positional().mid(1).join(QLatin1Char(' '));
    if (query.trimmed().isEmpty() && !context.args().flag(QStringLiteral("profiles")))
        co_return context.usageError(
            QStringLiteral("usage: search QUERY [--profiles] [--channel UUID] [--limit N]"));
    const std::optional<QString> channel = context.optionalChannel();
    if (channel && channel->isEmpty())
        co_return context.exitCode();
    int limit = context.args().flag(QStringLiteral("profiles")) ? 50 : 20;
    if (const auto text = context.args().option(QStringLiteral("limit"))) {
        bool ok = false;
        limit = text->toInt(&ok);
        if (!ok || limit < 1 || limit > 500)
            co_return context.usageError(QStringLiteral("--limit must be between 1 and 500"));
    }
    if (!co_await context.loadIdentity(true) || !context.connect())
        co_return context.exitCode();
    canvas::SearchClient service(&context.connection());
    QJsonArray array;
    if (context.args().flag(QStringLiteral("profiles"))) {
        auto hits = co_await service.searchProfiles(query, limit);
        if (!hits)
            co_return context.relayError(hits.error());
        for (const canvas::ProfileHit &hit : *hits)
            array.append(QJsonObject {{QStringLiteral("pubkey"), hit.pubkey},
                                      {QStringLiteral("display_name"), hit.displayName},
                                      {QStringLiteral("name"), hit.name},
                                      {QStringLiteral("nip05"), hit.nip05}});
    } else {
        auto hits = co_await service.searchCanvases(query, channel, limit);
        if (!hits)
            co_return context.relayError(hits.error());
        for (const canvas::CanvasRevision &revision : *hits)
            array.append(QJsonObject {{QStringLiteral("event_id"), revision.eventId},
                                      {QStringLiteral("channel"), revision.channel},
                                      {QStringLiteral("author"), revision.author},
                                      {QStringLiteral("created_at"), revision.createdAt},
                                      {QStringLiteral("content"), revision.content}});
    }
    CliContext::printJson(array);
    co_return ExitCode::Ok;
}

} // namespace buzz::cli
