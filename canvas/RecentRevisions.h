#pragma once

#include "canvas/CanvasRevision.h"

#include <QString>

#include <deque>

namespace buzz::canvas {

// The revisions an open canvas wrote itself and saw confirmed by the writer (its saves and
// restores), newest first and bounded: a session open for days keeps the last kCapacity. They
// tell a live echo of our own write from someone else's change, and let History show our save
// before a lagging replica has it. An older own revision that fell out is older than the head, so
// its late echo is ignored anyway.
class RecentRevisions
{
public:
    static constexpr std::size_t kCapacity = 32;

    // Adds (or moves to the front) a revision; the oldest beyond kCapacity is dropped.
    void add(const CanvasRevision &revision);
    bool contains(const QString &eventId) const; // case-insensitive
    const std::deque<CanvasRevision> &newestFirst() const { return m_revisions; }
    std::size_t size() const { return m_revisions.size(); }

private:
    std::deque<CanvasRevision> m_revisions;
};

} // namespace buzz::canvas
