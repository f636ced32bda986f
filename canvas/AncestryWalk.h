#pragma once

#include "canvas/CanvasRevision.h"

#include <QString>

#include <vector>

namespace buzz::canvas {

// Did our write survive? `newestFirst` is a strong read of the channel's latest revisions.
// Starting at the head, follow each revision's expected-revision link (case-insensitive). Reaching
// `ourId` → survived: a later write built on ours, possibly transitively (A → B → C). The chain
// ending ("none" or untagged), leaving the slice, cycling, exceeding `maxHops` or an empty slice →
// not survived (fail safe: we never claim a survival we cannot prove).
bool canvasWriteSurvived(const std::vector<CanvasRevision> &newestFirst, const QString &ourId,
                         int maxHops = 256);

} // namespace buzz::canvas
