#include "canvas/AncestryWalk.h"

#include <QHash>
#include <QSet>

namespace buzz::canvas {

bool canvasWriteSurvived(const std::vector<CanvasRevision> &newestFirst, const QString &ourId,
                         int maxHops)
{
    if (newestFirst.empty() || ourId.isEmpty())
        return false;
    const QString target = ourId.toLower();
    QHash<QString, const CanvasRevision *> byId;
    byId.reserve(static_cast<qsizetype>(newestFirst.size()));
    for (const CanvasRevision &revision : newestFirst)
        byId.insert(revision.eventId.toLower(), &revision);

    QString current = newestFirst.front().eventId.toLower();
    QSet<QString> visited;
    for (int hops = 0; hops <= maxHops; ++hops) {
        if (current == target)
            return true;
        const CanvasRevision *revision = byId.value(current);
        if (!revision || visited.contains(current))
            return false;
        visited.insert(current);
        if (!revision->expectedRevision)
            return false;
        const QString next = revision->expectedRevision->toLower();
        if (next == QLatin1String(kExpectedNone))
            return false;
        current = next;
    }
    return false;
}

} // namespace buzz::canvas
