#pragma once

namespace buzz::relay {

// Which caller is reading. Routing classifies a read by it (its arm and its failure rules), and
// every route metric is labelled with it, so a new caller gets a new value, never a reused one.
enum class ReadPath {
    BridgeQuery, // POST /query
    BridgeCount, // POST /count
    BridgeCountFallback, // POST /count that materialises rows
    ReqHistorical, // WS REQ backfill
    CountReq, // WS COUNT
    CountReqFallback, // WS COUNT that materialises rows
    BridgeThreadAux, // depth_limit thread pages
    BridgeSearchHydrate, // NIP-50 hydration of POST /query search hits (exact pairs)
    ReqSearchHydrate, // NIP-50 hydration of WS REQ search hits (exact pairs)
    ProfileSearchHydrate, // NIP-50 hydration of profile-name (kinds:[0]) search hits
};

} // namespace buzz::relay
