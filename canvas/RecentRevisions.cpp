#include "canvas/RecentRevisions.h"

#include <algorithm>

namespace buzz::canvas {

void RecentRevisions::add(const CanvasRevision &revision)
{
    const auto same =
        std::find_if(m_revisions.begin(), m_revisions.end(),
                     [&](const CanvasRevision &known) { return known.hasId(revision.eventId); });
    if (same != m_revisions.end())
        m_revisions.erase(same);
    // Keep the relay's order, so "newest first" means what History means by it.
    const auto position =
        std::find_if(m_revisions.begin(), m_revisions.end(),
                     [&](const CanvasRevision &known) { return revision.isNewerThan(known); });
    m_revisions.insert(position, revision);
    if (m_revisions.size() > kCapacity)
        m_revisions.pop_back();
}

bool RecentRevisions::contains(const QString &eventId) const
{
    return std::any_of(m_revisions.begin(), m_revisions.end(),
                       [&](const CanvasRevision &known) { return known.hasId(eventId); });
}

} // namespace buzz::canvas
