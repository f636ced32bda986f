#pragma once

#include "relay/ingest/IngestStep.h"

#include <vector>

namespace buzz::relay::ingest {

// What each kind adds to the common ingest steps (docs/buzz-protocol.md §Ingest order), as one
// row per kind rather than kind tests spread through the pipeline: IngestPipeline runs the common
// steps in their order and calls the row's hooks at theirs. A kind without a row of its own gets
// the default: its channel from its `h` tag (none for global kinds), member access, no checks of
// its own, no side effects.
class KindRuleTable
{
public:
    struct Rule
    {
        // Step 5: the channel (and, for reactions and deletions, the target event).
        Refusal (*resolve)(IngestStep &step) = nullptr; // null: from the `h` tag
        // Canvas CAS and channel creation decide on the channel's rows as they are now: the
        // channel is locked before any of them is read.
        bool locksChannel = false;
        bool readsChannel = true; // false: channel creation (no row yet)
        bool checksAccess = true; // step 8 (false: joining, creating)
        bool fanOutOnly = false; // typing: checked up to step 8, fanned out, never stored
        Refusal (*authorise)(IngestStep &step) = nullptr; // steps 9-10, before step 11
        Refusal (*validate)(IngestStep &step) = nullptr; // steps 12-17, after step 11
        Refusal (*prepare)(IngestStep &step) = nullptr; // steps 20-20a and canvas CAS
        // Side effects in the same transaction, after the row; relay-signed events go to
        // `committed`. False = a write failed.
        bool (*apply)(IngestStep &step, std::vector<StoredEvent> &committed) = nullptr;
    };

    static const Rule &forKind(int kind);
};

} // namespace buzz::relay::ingest
