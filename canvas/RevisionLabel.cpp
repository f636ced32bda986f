#include "canvas/RevisionLabel.h"

#include "canvas/CanvasRevision.h"
#include "net/nostr/Hex.h"

#include <charconv>

namespace buzz::canvas {

namespace {

std::optional<qint64> labelTagSeconds(const std::string &text)
{
    qint64 value = 0;
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || stop != end || text.empty() || value < 0)
        return std::nullopt;
    return value;
}

} // namespace

RevisionLabel RevisionLabel::of(Kind kind, const QString &revisionId, qint64 createdAt,
                                const QString &author)
{
    return RevisionLabel {kind, revisionId.toLower(), createdAt, author.toLower()};
}

RevisionLabel RevisionLabel::restoring(const CanvasRevision &target)
{
    return of(Kind::Restore, target.eventId, target.createdAt, target.author);
}

RevisionLabel RevisionLabel::merging(const CanvasRevision &theirs)
{
    return of(Kind::Merge, theirs.eventId, theirs.createdAt, theirs.author);
}

std::optional<RevisionLabel> RevisionLabel::forMerge(const std::optional<CanvasRevision> &theirs,
                                                     const QString &mine, const QString &merged)
{
    if (!theirs || merged == mine || merged == theirs->content)
        return std::nullopt;
    return merging(*theirs);
}

nostr::Tag RevisionLabel::tag() const
{
    return {kind == Kind::Restore ? kRestoredFromTag : kMergedWithTag, revisionId.toStdString(),
            std::to_string(createdAt), author.toStdString()};
}

std::optional<RevisionLabel> RevisionLabel::fromEvent(const nostr::Event &event)
{
    for (const nostr::Tag &tag : event.tags) {
        if (tag.size() != 4 || (tag[0] != kRestoredFromTag && tag[0] != kMergedWithTag))
            continue;
        const auto createdAt = labelTagSeconds(tag[2]);
        if (!nostr::isLowerHex(tag[1], 64) || !createdAt || !nostr::isLowerHex(tag[3], 64))
            continue;
        return of(tag[0] == kRestoredFromTag ? Kind::Restore : Kind::Merge,
                  QString::fromStdString(tag[1]), *createdAt, QString::fromStdString(tag[3]));
    }
    return std::nullopt;
}

} // namespace buzz::canvas
