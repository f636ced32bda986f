#pragma once

#include "relay/model/QueryResult.h"
#include "relay/model/ReadPath.h"
#include "relay/model/RequestContext.h"
#include "relay/routing/ReadRouter.h"

#include <string>
#include <vector>

namespace buzz::relay::query {

// Reads: filters → SQL on a connection chosen by the ReadRouter, then the full re-match,
// channel access and (on WebSocket) de-duplication across filters.
class QueryService
{
public:
    explicit QueryService(routing::ReadRouter &router)
        : m_router(router)
    { }

    QueryResult query(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);
    QueryResult count(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);
    AdmissionResult admit(const std::vector<nostr::Filter> &filters, const RequestContext &context);
    bool canRead(const std::string &community, const std::string &channel,
                 const std::string &pubkey);

    static bool isHttpPath(ReadPath path);

private:
    // The routed read shared by query and count: HTTP gates, a lease from the router, one
    // settlement, at most one re-run on the writer. readAll(lease, result, attempt) runs the
    // statements; false = a statement would not prepare (internal error).
    template<class ReadAll>
    QueryResult runRouted(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                          ReadPath path, ReadAll readAll);
    // 403 message when an HTTP request fails a gate (p-gated or engram kinds), else empty.
    static std::string httpGateFailure(const std::vector<nostr::Filter> &filters,
                                       const std::string &viewer);
    static ReadRequest readRequestFor(const std::vector<nostr::Filter> &filters, ReadPath path);

    routing::ReadRouter &m_router;
};

} // namespace buzz::relay::query
