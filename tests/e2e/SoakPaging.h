#pragma once

// Where a row that a complete routed paging walk did not return sat in the walk's key range, which
// decides who owed it: the first page is a Bounded read (a replica within the routing budget may
// serve it, so it can miss a row committed within the budget, also one signed in the past that
// sorts inside it), every later page is a Covered read (complete below its cursor, or run on the
// writer), so a row below the first page may never be missing.

#include "SoakLedger.h"

namespace buzz::soak {

enum class PagingMiss {
    NewerThanFirstPage, // above the first page's newest row (or the first page was empty)
    InFirstPage, // between the first page's newest and oldest rows
    BelowFirstPage, // older than the first page's oldest row: a continuation page owed it
};

// Keyset order: created_at DESC, then id ASC.
PagingMiss classifyPagingMiss(const PagingRecord &paging, qint64 createdAt, const QString &id);

} // namespace buzz::soak
