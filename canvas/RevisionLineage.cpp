#include "canvas/RevisionLineage.h"

namespace buzz::canvas {

RevisionLineage::Parent RevisionLineage::parentOf(const std::vector<CanvasRevision> &newestFirst,
                                                  const CanvasRevision &revision, bool mayHaveOlder)
{
    Parent parent;
    const std::optional<QString> &tag = revision.expectedRevision;
    if (tag && tag->compare(QLatin1String(kExpectedNone), Qt::CaseInsensitive) == 0)
        return parent; // First: it replaced nothing
    if (tag) {
        parent.byTag = true;
        for (std::size_t i = 0; i < newestFirst.size(); ++i) {
            if (newestFirst[i].hasId(*tag)) {
                parent.kind = Parent::Kind::Listed;
                parent.row = int(i);
                return parent;
            }
        }
        // A tagged parent is that revision and no other, wherever it is: never the row before.
        parent.kind = Parent::Kind::Unlisted;
        parent.id = tag->toLower();
        return parent;
    }
    // Untagged: the newest listed revision the relay orders behind it.
    int previous = -1;
    for (std::size_t i = 0; i < newestFirst.size(); ++i) {
        if (!newestFirst[i].hasId(revision.eventId) && revision.isNewerThan(newestFirst[i])
            && (previous < 0 || newestFirst[i].isNewerThan(newestFirst[std::size_t(previous)])))
            previous = int(i);
    }
    if (previous >= 0) {
        parent.kind = Parent::Kind::Listed;
        parent.row = previous;
    } else if (mayHaveOlder) {
        parent.kind = Parent::Kind::Unlisted;
    }
    return parent;
}

} // namespace buzz::canvas
