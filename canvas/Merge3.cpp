#include "canvas/Merge3.h"

#include <QHash>

#include <dtl/dtl.hpp>

#include <optional>

namespace buzz::canvas {

namespace {

// Lines are interned to ints so dtl compares integers, not strings.
class LineInterner
{
public:
    std::vector<int> intern(const QStringList &lines)
    {
        std::vector<int> ids;
        ids.reserve(lines.size());
        for (const QString &line : lines) {
            auto it = m_ids.find(line);
            if (it == m_ids.end())
                it = m_ids.insert(line, m_ids.size());
            ids.push_back(*it);
        }
        return ids;
    }

private:
    QHash<QString, int> m_ids;
};

// For each line of `from`, the index of the line it is matched to in `to` (-1 if deleted).
std::vector<int> matchLines(const std::vector<int> &from, const std::vector<int> &to)
{
    std::vector<int> match(from.size(), -1);
    if (from.empty() || to.empty())
        return match;
    dtl::Diff<int, std::vector<int>> diff(from, to);
    diff.compose();
    for (const auto &[element, info] : diff.getSes().getSequence()) {
        Q_UNUSED(element)
        if (info.type == dtl::SES_COMMON)
            match[static_cast<std::size_t>(info.beforeIdx - 1)] =
                static_cast<int>(info.afterIdx - 1);
    }
    return match;
}

struct TextShape
{
    std::optional<QString> lineEnding; // nullopt: the text has no line break at all
    std::optional<bool> finalNewline; // nullopt: empty text
};

TextShape shapeOf(const QString &text)
{
    TextShape shape;
    if (text.isEmpty())
        return shape;
    shape.finalNewline = text.endsWith(QLatin1Char('\n'));
    const qsizetype newlines = text.count(QLatin1Char('\n'));
    if (newlines > 0) {
        const qsizetype crlf = text.count(QLatin1String("\r\n"));
        shape.lineEnding = crlf * 2 > newlines ? QStringLiteral("\r\n") : QStringLiteral("\n");
    }
    return shape;
}

// A side that changed a property from base wins; otherwise theirs (the relay's current state).
template<class T>
T mergeProperty(const std::optional<T> &base, const std::optional<T> &mine,
                const std::optional<T> &theirs, const T &fallback)
{
    if (mine && (!base || *mine != *base))
        return *mine;
    if (theirs)
        return *theirs;
    if (mine)
        return *mine;
    return base.value_or(fallback);
}

QStringList slice(const QStringList &lines, int from, int to)
{
    return lines.mid(from, to - from);
}

void appendLines(QString &out, const QStringList &lines, const QString &eol)
{
    for (const QString &line : lines) {
        out += line;
        out += eol;
    }
}

QString assemble(const QStringList &lines, const QString &eol, bool finalNewline)
{
    QString out;
    appendLines(out, lines, eol);
    if (!finalNewline && !lines.isEmpty())
        out.chop(eol.size());
    return out;
}

} // namespace

const QStringList &MergeHunk::resolved() const
{
    switch (kind) {
    case Kind::Unchanged:
        return base;
    case Kind::TheirsOnly:
        return theirs;
    case Kind::MineOnly:
    case Kind::BothSame:
    case Kind::Conflict:
        return mine;
    }
    return mine;
}

int MergeResult::conflictCount() const
{
    int count = 0;
    for (const MergeHunk &hunk : hunks)
        count += hunk.conflicting() ? 1 : 0;
    return count;
}

std::vector<MergeResult::Change> MergeResult::changes() const
{
    std::vector<Change> changes;
    if (!clean())
        return changes;
    int line = 0;
    for (const MergeHunk &hunk : hunks) {
        const int count = int(hunk.resolved().size());
        if (hunk.kind != MergeHunk::Kind::Unchanged) {
            const Change::Owner owner = hunk.kind == MergeHunk::Kind::MineOnly ? Change::Owner::Mine
                : hunk.kind == MergeHunk::Kind::TheirsOnly ? Change::Owner::Theirs
                                                           : Change::Owner::Both;
            changes.push_back({owner, line, count, int(hunk.base.size())});
        }
        line += count;
    }
    return changes;
}

QString MergeResult::resolve(const std::vector<Choice> &choices) const
{
    QStringList lines;
    std::size_t conflictIndex = 0;
    for (const MergeHunk &hunk : hunks) {
        if (!hunk.conflicting()) {
            lines += hunk.resolved();
            continue;
        }
        const Choice choice =
            conflictIndex < choices.size() ? choices[conflictIndex] : Choice::Mine;
        ++conflictIndex;
        switch (choice) {
        case Choice::Mine:
            lines += hunk.mine;
            break;
        case Choice::Theirs:
            lines += hunk.theirs;
            break;
        case Choice::Base:
            lines += hunk.base;
            break;
        case Choice::MineThenTheirs:
            lines += hunk.mine;
            lines += hunk.theirs;
            break;
        case Choice::TheirsThenMine:
            lines += hunk.theirs;
            lines += hunk.mine;
            break;
        }
    }
    return assemble(lines, lineEnding, finalNewline);
}

QString MergeResult::resolveWithText(const QStringList &hunkTexts) const
{
    QStringList lines;
    int conflictIndex = 0;
    for (const MergeHunk &hunk : hunks) {
        if (!hunk.conflicting()) {
            lines += hunk.resolved();
            continue;
        }
        if (conflictIndex < hunkTexts.size())
            lines += Merge3::splitLines(hunkTexts.at(conflictIndex));
        else
            lines += hunk.mine;
        ++conflictIndex;
    }
    return assemble(lines, lineEnding, finalNewline);
}

QStringList Merge3::splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast(); // the terminator of the last line, not an extra empty line
    for (QString &line : lines) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
    }
    return lines;
}

MergeResult Merge3::merge(const QString &base, const QString &mine, const QString &theirs)
{
    const QStringList baseLines = splitLines(base);
    const QStringList mineLines = splitLines(mine);
    const QStringList theirLines = splitLines(theirs);
    LineInterner interner;
    const std::vector<int> b = interner.intern(baseLines);
    const std::vector<int> m = interner.intern(mineLines);
    const std::vector<int> t = interner.intern(theirLines);
    const std::vector<int> toMine = matchLines(b, m);
    const std::vector<int> toTheirs = matchLines(b, t);

    MergeResult result;
    const TextShape baseShape = shapeOf(base), mineShape = shapeOf(mine),
                    theirShape = shapeOf(theirs);
    result.lineEnding = mergeProperty(baseShape.lineEnding, mineShape.lineEnding,
                                      theirShape.lineEnding, QStringLiteral("\n"));
    result.finalNewline = mergeProperty(baseShape.finalNewline, mineShape.finalNewline,
                                        theirShape.finalNewline, true);

    const int nb = static_cast<int>(b.size()), nm = static_cast<int>(m.size()),
              nt = static_cast<int>(t.size());
    int ib = 0, im = 0, it = 0;
    auto stableAt = [&](int j, int km, int kt) {
        return toMine[j] == km && toTheirs[j] == kt;
    };
    while (ib < nb || im < nm || it < nt) {
        // A run of lines present in all three at the current positions.
        int run = 0;
        while (ib + run < nb && stableAt(ib + run, im + run, it + run))
            ++run;
        if (run > 0) {
            MergeHunk hunk;
            hunk.kind = MergeHunk::Kind::Unchanged;
            hunk.base = slice(baseLines, ib, ib + run);
            hunk.mine = slice(mineLines, im, im + run);
            hunk.theirs = slice(theirLines, it, it + run);
            hunk.baseLine = ib;
            result.hunks.push_back(std::move(hunk));
            ib += run;
            im += run;
            it += run;
            continue;
        }
        // The next base line kept by both sides ends the unstable stretch.
        int j = ib;
        while (j < nb && (toMine[j] < im || toTheirs[j] < it))
            ++j;
        const int endMine = j < nb ? toMine[j] : nm;
        const int endTheirs = j < nb ? toTheirs[j] : nt;
        MergeHunk hunk;
        hunk.base = slice(baseLines, ib, j);
        hunk.mine = slice(mineLines, im, endMine);
        hunk.theirs = slice(theirLines, it, endTheirs);
        hunk.baseLine = ib;
        const bool mineChanged = hunk.mine != hunk.base;
        const bool theirsChanged = hunk.theirs != hunk.base;
        if (!mineChanged && !theirsChanged)
            hunk.kind = MergeHunk::Kind::Unchanged;
        else if (!theirsChanged)
            hunk.kind = MergeHunk::Kind::MineOnly;
        else if (!mineChanged)
            hunk.kind = MergeHunk::Kind::TheirsOnly;
        else if (hunk.mine == hunk.theirs)
            hunk.kind = MergeHunk::Kind::BothSame;
        else
            hunk.kind = MergeHunk::Kind::Conflict;
        result.hunks.push_back(std::move(hunk));
        ib = j;
        im = endMine;
        it = endTheirs;
    }

    const QString &eol = result.lineEnding;
    if (result.clean()) {
        QStringList lines;
        for (const MergeHunk &hunk : result.hunks)
            lines += hunk.resolved();
        result.text = assemble(lines, eol, result.finalNewline);
        return result;
    }
    QString text;
    for (const MergeHunk &hunk : result.hunks) {
        if (!hunk.conflicting()) {
            appendLines(text, hunk.resolved(), eol);
            continue;
        }
        text += QStringLiteral("<<<<<<< mine") + eol;
        appendLines(text, hunk.mine, eol);
        text += QStringLiteral("||||||| base") + eol;
        appendLines(text, hunk.base, eol);
        text += QStringLiteral("=======") + eol;
        appendLines(text, hunk.theirs, eol);
        text += QStringLiteral(">>>>>>> theirs") + eol;
    }
    result.text = text;
    return result;
}

Merge3::LineChange Merge3::lineChange(const QString &from, const QString &to)
{
    LineChange change;
    if (from == to)
        return change;
    for (const DiffLine &line : lineDiff(from, to)) {
        change.added += line.op == DiffLine::Op::Added ? 1 : 0;
        change.removed += line.op == DiffLine::Op::Removed ? 1 : 0;
    }
    return change;
}

std::vector<DiffLine> Merge3::lineDiff(const QString &from, const QString &to)
{
    const QStringList fromLines = splitLines(from);
    const QStringList toLines = splitLines(to);
    std::vector<DiffLine> lines;
    if (fromLines.isEmpty() || toLines.isEmpty()) {
        for (const QString &line : fromLines)
            lines.push_back({DiffLine::Op::Removed, line});
        for (const QString &line : toLines)
            lines.push_back({DiffLine::Op::Added, line});
        return lines;
    }
    LineInterner interner;
    const std::vector<int> a = interner.intern(fromLines);
    const std::vector<int> b = interner.intern(toLines);
    dtl::Diff<int, std::vector<int>> diff(a, b);
    diff.compose();
    const auto sequence = diff.getSes().getSequence();
    lines.reserve(sequence.size());
    // Within each changed stretch, removals first then additions (the familiar rendering).
    std::vector<DiffLine> added;
    for (const auto &[element, info] : sequence) {
        Q_UNUSED(element)
        if (info.type == dtl::SES_COMMON) {
            lines.insert(lines.end(), added.begin(), added.end());
            added.clear();
            lines.push_back({DiffLine::Op::Same, fromLines.at(info.beforeIdx - 1)});
        } else if (info.type == dtl::SES_DELETE) {
            lines.push_back({DiffLine::Op::Removed, fromLines.at(info.beforeIdx - 1)});
        } else {
            added.push_back({DiffLine::Op::Added, toLines.at(info.afterIdx - 1)});
        }
    }
    lines.insert(lines.end(), added.begin(), added.end());
    return lines;
}

} // namespace buzz::canvas
