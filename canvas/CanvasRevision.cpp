#include "canvas/CanvasRevision.h"

#include "net/nostr/EventOrder.h"

namespace buzz::canvas {

bool CanvasRevision::isNewerThan(const CanvasRevision &other) const
{
    return nostr::isNewer(createdAt, eventId.toLower(), other.createdAt, other.eventId.toLower());
}

CanvasRevision CanvasRevision::named(const QString &channel, const QString &eventId)
{
    CanvasRevision revision;
    revision.eventId = eventId.toLower();
    revision.channel = channel;
    return revision;
}

std::optional<CanvasRevision> CanvasRevision::fromEvent(const nostr::Event &event)
{
    if (event.kind != kCanvasKind)
        return std::nullopt;
    CanvasRevision revision;
    revision.eventId = QString::fromStdString(event.id);
    if (const std::string *channel = event.tagValue("h"))
        revision.channel = QString::fromStdString(*channel).toLower();
    revision.content = QString::fromStdString(event.content);
    revision.createdAt = event.createdAt;
    revision.author = QString::fromStdString(event.pubkey);
    if (const std::string *expected = event.tagValue("expected-revision"))
        revision.expectedRevision = QString::fromStdString(*expected);
    revision.label = RevisionLabel::fromEvent(event);
    return revision;
}

} // namespace buzz::canvas
