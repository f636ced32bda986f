// Three-way canvas merge (canvas/Merge3) on three fuzzed texts (input: base\0mine\0theirs).
// Invariants a user relies on when two people edit one canvas:
//   - a side that did not change anything never changes the other side's text:
//     merge(base, x, base) == x and merge(base, base, x) == x, both clean;
//   - the same change made on both sides merges cleanly to it: merge(base, x, x) == x;
//   - hunks cover the base exactly once, in order;
//   - whether a merge conflicts does not depend on which side is "mine".

#include "FuzzCheck.h"

#include "canvas/Merge3.h"

using buzz::canvas::Merge3;
using buzz::canvas::MergeResult;

namespace {

void checkHunksCoverBase(const MergeResult &result, const QString &base)
{
    int line = 0;
    for (const auto &hunk : result.hunks) {
        FUZZ_CHECK(hunk.baseLine == line, "hunks do not follow each other through the base");
        line += int(hunk.base.size());
    }
    FUZZ_CHECK(line == int(Merge3::splitLines(base).size()), "hunks do not cover the whole base");
}

// Merge3 normalises line endings (one ending per result, a stray '\r' before a terminator is
// taken as part of a CRLF), so texts containing '\r' are checked for clean-ness and coverage
// only; their exact lines may legitimately differ.
bool hasCr(const QString &text)
{
    return text.contains(u'\r');
}

void checkTakesUnchangedSide(const QString &base, const QString &changed, bool changedIsMine)
{

    const MergeResult result =
        changedIsMine ? Merge3::merge(base, changed, base) : Merge3::merge(base, base, changed);
    FUZZ_CHECK(result.clean(), "a merge where one side changed nothing conflicts");
    if (hasCr(base) || hasCr(changed))
        return;
    FUZZ_CHECK(Merge3::splitLines(result.text) == Merge3::splitLines(changed),
               "a merge where one side changed nothing lost the other side's lines");
    FUZZ_CHECK(result.text == changed, "a merge where one side changed nothing altered the text");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    if (size > 8192)
        return 0; // canvases are larger, but the line-diff cost is not what this target explores
    const auto parts = fuzzutil::splitParts(data, size, 3);
    const QString base = QString::fromUtf8(parts[0].data(), qsizetype(parts[0].size()));
    const QString mine = QString::fromUtf8(parts[1].data(), qsizetype(parts[1].size()));
    const QString theirs = QString::fromUtf8(parts[2].data(), qsizetype(parts[2].size()));

    const MergeResult result = Merge3::merge(base, mine, theirs);
    checkHunksCoverBase(result, base);
    (void)result.resolve({MergeResult::Choice::Theirs, MergeResult::Choice::MineThenTheirs});
    (void)result.resolveWithText({mine});

    const MergeResult swapped = Merge3::merge(base, theirs, mine);
    FUZZ_CHECK(result.conflictCount() == swapped.conflictCount(),
               "swapping mine and theirs changed the number of conflicts");

    checkTakesUnchangedSide(base, mine, true);
    checkTakesUnchangedSide(base, theirs, false);

    const MergeResult same = Merge3::merge(base, mine, mine);
    FUZZ_CHECK(same.clean(), "the same change on both sides conflicts");
    if (hasCr(base) || hasCr(mine))
        return 0;
    FUZZ_CHECK(Merge3::splitLines(same.text) == Merge3::splitLines(mine),
               "the same change on both sides did not merge to it");
    return 0;
}
