#pragma once

#include "canvas/CanvasRevision.h"

#include <vector>

namespace buzz::canvas {

// Which revision a revision replaced, among the revisions listed so far (newest first, as History
// pages list them): its parent by its own expected-revision tag
// (docs/buzz-protocol.md §Canvas CAS), else, for an untagged legacy write, the previous revision
// in the relay's order. History shows each revision's own change against it, and blame follows
// it back.
class RevisionLineage
{
public:
    struct Parent
    {
        enum class Kind {
            First, // the channel's first revision ("none"), or the oldest there is: no parent
            Listed, // `row` is its parent
            Unlisted, // not among the rows: the tagged parent's id is `id` (read it by id), or
                      // (empty id) the previous revision is on a page not loaded yet
        };
        Kind kind = Kind::First;
        int row = -1;
        QString id; // Unlisted: the expected-revision id, lower case
        // Found by the revision's own tag (final), not by position (which pages can change).
        bool byTag = false;
    };

    // The parent of `revision` (listed or not) among `newestFirst`. `mayHaveOlder`: more pages
    // may follow, so "nothing older listed" does not yet mean "the oldest there is".
    static Parent parentOf(const std::vector<CanvasRevision> &newestFirst,
                           const CanvasRevision &revision, bool mayHaveOlder);
};

} // namespace buzz::canvas
