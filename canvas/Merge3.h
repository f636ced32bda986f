#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace buzz::canvas {

// One stretch of a three-way merge. The hunks of a MergeResult cover the whole document in
// order; `base`, `mine` and `theirs` hold that stretch's lines (without line terminators) in each
// version.
struct MergeHunk
{
    enum class Kind {
        Unchanged, // all three agree
        MineOnly, // only mine changed this stretch → take mine
        TheirsOnly, // only theirs changed → take theirs
        BothSame, // both made the identical change → take it once
        Conflict, // both changed it differently → the user picks (or edits)
    };
    Kind kind = Kind::Unchanged;
    QStringList base;
    QStringList mine;
    QStringList theirs;
    int baseLine = 0; // 0-based index of this stretch's first line in base

    bool conflicting() const { return kind == Kind::Conflict; }
    // The lines a clean merge takes for this hunk (for Conflict: mine, as a placeholder).
    const QStringList &resolved() const;
};

struct MergeResult
{
    // Clean merge: the merged document. With conflicts: clean hunks merged and every conflicting
    // hunk shown with git-style markers (<<<<<<< mine / ||||||| base / ======= / >>>>>>> theirs).
    QString text;
    std::vector<MergeHunk> hunks;
    QString lineEnding = QStringLiteral("\n"); // the line ending the result uses
    bool finalNewline = true; // whether the result ends with one

    bool clean() const { return conflictCount() == 0; }
    int conflictCount() const;

    // Whose change each changed stretch of a clean merge's text is (the conflict dialog marks
    // them). `firstLine` is 0-based in `text`; a stretch that only removed lines has lineCount 0
    // and sits where they were. `removed` counts the base lines it replaced.
    struct Change
    {
        enum class Owner { Mine, Theirs, Both };
        Owner owner = Owner::Mine;
        int firstLine = 0;
        int lineCount = 0;
        int removed = 0;
    };
    std::vector<Change> changes() const; // empty unless clean()

    enum class Choice { Mine, Theirs, Base, MineThenTheirs, TheirsThenMine };
    // Assemble the document with one choice per conflicting hunk (in order). Missing choices
    // default to Mine. Clean hunks are always taken as merged.
    QString resolve(const std::vector<Choice> &choices) const;
    // Same with free text per conflicting hunk (side-by-side editing); each string replaces the
    // hunk's lines verbatim (its own line breaks are normalised to lineEnding).
    QString resolveWithText(const QStringList &hunkTexts) const;
};

// A line of a two-way line diff (history view: "+" revision-only, "-" current-only).
struct DiffLine
{
    enum class Op { Same, Added, Removed };
    Op op = Op::Same;
    QString text;
};

// Three-way line merge built on dtl's shortest edit scripts (base→mine, base→theirs).
// Line endings: lines are compared without terminators, so a CRLF file merges with an LF copy;
// the result keeps mine's line ending if mine changed it from base, else theirs'. A missing final
// newline is merged the same way (a side that changed it wins). An empty base (two first
// creations racing) merges as two insertions at the same place: identical → clean, else Conflict.
class Merge3
{
public:
    static MergeResult merge(const QString &base, const QString &mine, const QString &theirs);

    // Line diff from `from` to `to` (Removed = only in from, Added = only in to).
    static std::vector<DiffLine> lineDiff(const QString &from, const QString &to);
    // How many lines lineDiff adds and removes (History's "+N −M" per revision).
    struct LineChange
    {
        int added = 0;
        int removed = 0;
    };
    static LineChange lineChange(const QString &from, const QString &to);

    // Lines without terminators; "\r\n" and "\n" both end a line. "" → {}; "a\n" → {"a"}.
    static QStringList splitLines(const QString &text);
};

} // namespace buzz::canvas
