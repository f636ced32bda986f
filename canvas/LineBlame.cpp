#include "canvas/LineBlame.h"

#include "canvas/Merge3.h"

#include <QHash>

#include <dtl/dtl.hpp>

#include <algorithm>

namespace buzz::canvas {

namespace {

// For each line of `child`, the index of the same line in `parent` (-1: the child added it).
// Lines are interned to ints so dtl compares integers, not strings.
std::vector<int> blameLinesFromParent(const QStringList &parent, const QStringList &child)
{
    std::vector<int> origin(std::size_t(child.size()), -1);
    if (parent.isEmpty() || child.isEmpty())
        return origin;
    QHash<QString, int> ids;
    const auto intern = [&ids](const QStringList &lines) {
        std::vector<int> out;
        out.reserve(std::size_t(lines.size()));
        for (const QString &line : lines)
            out.push_back(*ids.insert(line, ids.value(line, int(ids.size()))));
        return out;
    };
    const std::vector<int> from = intern(parent);
    const std::vector<int> to = intern(child);
    dtl::Diff<int, std::vector<int>> diff(from, to);
    diff.compose();
    for (const auto &[element, info] : diff.getSes().getSequence()) {
        Q_UNUSED(element)
        if (info.type == dtl::SES_COMMON)
            origin[std::size_t(info.afterIdx - 1)] = int(info.beforeIdx - 1);
    }
    return origin;
}

} // namespace

bool Blame::complete() const
{
    return std::none_of(lines.begin(), lines.end(),
                        [](const BlameLine &line) { return line.orEarlier; });
}

LineBlame::LineBlame(const CanvasRevision &target)
    : m_current(target)
    , m_currentLines(Merge3::splitLines(target.content))
    , m_targetId(target.eventId.toLower())
{
    m_lines.resize(std::size_t(m_currentLines.size()));
    m_position.resize(m_lines.size());
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        m_lines[i].text = m_currentLines.at(qsizetype(i));
        m_position[i] = int(i);
    }
    m_pending = m_lines.size();
}

void LineBlame::attribute(std::size_t line, const CanvasRevision &revision, bool orEarlier)
{
    BlameLine &blamed = m_lines[line];
    blamed.revisionId = revision.eventId.toLower();
    blamed.author = revision.author;
    blamed.createdAt = revision.createdAt;
    blamed.orEarlier = orEarlier;
    m_position[line] = -1;
    --m_pending;
}

void LineBlame::stepTo(const CanvasRevision &parent)
{
    if (done())
        return;
    QStringList parentLines = Merge3::splitLines(parent.content);
    const std::vector<int> origin = blameLinesFromParent(parentLines, m_currentLines);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const int at = m_position[i];
        if (at < 0)
            continue;
        const int before = origin[std::size_t(at)];
        if (before < 0)
            attribute(i, m_current, false);
        else
            m_position[i] = before;
    }
    ++m_walked;
    m_current = parent;
    m_currentLines = std::move(parentLines);
}

void LineBlame::finishAtRoot()
{
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (m_position[i] >= 0)
            attribute(i, m_current, false);
    }
}

void LineBlame::finishUnknown()
{
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (m_position[i] >= 0)
            attribute(i, m_current, true);
    }
}

void LineBlame::finishFrom(const Blame &known)
{
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const int at = m_position[i];
        if (at < 0)
            continue;
        if (std::size_t(at) >= known.lines.size()) { // not a blame of current(): fail safe
            attribute(i, m_current, true);
            continue;
        }
        const BlameLine &origin = known.lines[std::size_t(at)];
        m_lines[i].revisionId = origin.revisionId;
        m_lines[i].author = origin.author;
        m_lines[i].createdAt = origin.createdAt;
        m_lines[i].orEarlier = origin.orEarlier;
        m_position[i] = -1;
        --m_pending;
    }
}

Blame LineBlame::result() const
{
    Blame blame;
    blame.revisionId = m_targetId;
    blame.lines = m_lines;
    blame.revisionsWalked = m_walked;
    return blame;
}

} // namespace buzz::canvas
