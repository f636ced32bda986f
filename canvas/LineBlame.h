#pragma once

#include "canvas/CanvasRevision.h"

#include <QStringList>

#include <vector>

namespace buzz::canvas {

// One line of a blamed revision and the revision that last changed it.
struct BlameLine
{
    QString text;
    QString revisionId; // the revision that wrote this line as it is (lower case)
    QString author; // its author (pubkey hex)
    qint64 createdAt = 0;
    // The walk ended before this line's origin (older history was not available): the line is
    // at least as old as `revisionId`, which is only the oldest revision read.
    bool orEarlier = false;
};

// Who last changed each line of a revision.
struct Blame
{
    QString revisionId; // the blamed revision
    std::vector<BlameLine> lines;
    int revisionsWalked = 0; // how many revisions back the walk went
    // Every line was traced to the revision that wrote it (none is orEarlier).
    bool complete() const;
};

// The blame walk of one revision, one parent at a time, like `git blame`: every line of the
// target is followed back through each revision's line diff against the revision it replaced
// (dtl's shortest edit script, as in Merge3); the first revision that does not have it from its
// parent wrote it. The walk stops as soon as every line is attributed, so a blame usually needs
// only the recent part of a long history. Pure: the caller finds the parents (BlameService).
class LineBlame
{
public:
    explicit LineBlame(const CanvasRevision &target);

    bool done() const { return m_pending == 0; }
    // The revision the walk has reached (the target first).
    const CanvasRevision &current() const { return m_current; }

    // `parent` is the revision current() replaced: the lines current() added are its, the
    // others are followed on into `parent`.
    void stepTo(const CanvasRevision &parent);
    // current() replaced nothing (the first revision): every line left is its.
    void finishAtRoot();
    // The history before current() cannot be read: every line left is current()'s "or earlier".
    void finishUnknown();
    // A blame of current() is already known (a cache): every line left takes its attribution.
    void finishFrom(const Blame &known);

    Blame result() const;

private:
    void attribute(std::size_t line, const CanvasRevision &revision, bool orEarlier);

    CanvasRevision m_current;
    QStringList m_currentLines;
    std::vector<BlameLine> m_lines;
    std::vector<int> m_position; // each target line's index in current(), -1 once attributed
    std::size_t m_pending = 0;
    int m_walked = 0;
    QString m_targetId;
};

} // namespace buzz::canvas
