#include "RelayCheckCanvas.h"

#include "net/nostr/Kinds.h"

namespace buzz::cli {

namespace {

// Built outside the coroutines: g++ 12 cannot keep a braced initializer list in a coroutine frame.
nlohmann::json canvasFilters(const QString &channel, bool strong, int limit)
{
    nlohmann::json filter = {
        {"kinds", {nostr::kinds::kCanvas}}, {"#h", {channel.toStdString()}}, {"limit", limit}};
    if (strong)
        filter["consistency"] = "strong";
    return nlohmann::json::array({filter});
}

} // namespace

nostr::Event RelayCheckCanvas::revision(const RelayCheckContext &context, std::int64_t createdAt,
                                        std::string expected, std::string content)
{
    return context.probe.sign(
        nostr::kinds::kCanvas, createdAt,
        {{"h", context.channel.toStdString()}, {"expected-revision", std::move(expected)}},
        std::move(content));
}

QCoro::Task<HeadRead> RelayCheckCanvas::head(RelayCheckContext &context, bool strong)
{
    co_return co_await history(context, strong, 1);
}

QCoro::Task<HeadRead> RelayCheckCanvas::history(RelayCheckContext &context, bool strong, int limit)
{
    const nlohmann::json filters = canvasFilters(context.channel, strong, limit);
    HeadRead read;
    read.answer = co_await context.probe.query(filters);
    const nlohmann::json rows = read.answer.json();
    if (read.answer.status != 200 || !rows.is_array())
        co_return read;
    for (const nlohmann::json &row : rows) {
        auto event = nostr::Event::fromJson(row);
        if (event && event->kind == nostr::kinds::kCanvas)
            read.events.push_back(std::move(*event));
    }
    if (!read.events.empty())
        read.id = QString::fromStdString(read.events.front().id);
    co_return read;
}

QCoro::Task<CanvasWrite> RelayCheckCanvas::writeOnHead(RelayCheckContext &context,
                                                       std::string content)
{
    std::int64_t createdAt = RelayProbe::now();
    std::string expected = "none";
    if (context.head) {
        createdAt = std::max(createdAt, context.head->createdAt + 1);
        expected = context.head->id;
    }
    CanvasWrite write;
    write.event = revision(context, createdAt, expected, std::move(content));
    write.answer = co_await context.probe.publish(write.event);
    write.accepted = write.answer.accepted();
    if (write.accepted)
        context.head = write.event;
    co_return write;
}

} // namespace buzz::cli
