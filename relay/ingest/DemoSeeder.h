#pragma once

#include "net/nostr/Event.h"
#include "relay/model/IngestResult.h"
#include "relay/model/RequestContext.h"

#include <cstdint>
#include <functional>
#include <string>

namespace buzz::relay::ingest {

// `--seed demo`: three channels whose canvases have several Markdown revisions, written through the
// normal ingest path by two deterministic demo identities (so seeded rows look like real ones).
class DemoSeeder
{
public:
    using Ingest = std::function<IngestResult(const nostr::Event &, const RequestContext &)>;

    // Idempotent: a community that already has the demo channels is left alone.
    static void seed(const std::string &community, std::int64_t now, const Ingest &ingest);

    static std::string alicePublicKeyHex();
    static std::string bobPublicKeyHex();
};

} // namespace buzz::relay::ingest
