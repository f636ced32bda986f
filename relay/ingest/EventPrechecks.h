#pragma once

#include "net/nostr/Event.h"
#include "relay/model/IngestResult.h"
#include "relay/model/RequestContext.h"

#include <cstdint>
#include <optional>

namespace buzz::relay::ingest {

// docs/buzz-protocol.md §Ingest order steps 1–4: everything that needs no database. Runs outside
// the writer lock so signature verification of concurrent ingests proceeds in parallel.
class EventPrechecks
{
public:
    static constexpr std::int64_t kMaxClockSkewSeconds = 900;
    static constexpr std::size_t kMaxContentBytes = 262144;

    static std::optional<IngestResult> run(const nostr::Event &event, const RequestContext &context,
                                           std::int64_t now);
};

} // namespace buzz::relay::ingest
