#pragma once

#include "relay/model/QueryResult.h"
#include "relay/model/ReadPath.h"
#include "relay/model/RequestContext.h"
#include "relay/routing/ReadRouter.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace buzz::relay::query {

// Reads: filters → SQL on a connection chosen by the ReadRouter, then the full re-match,
// channel access and (on WebSocket) de-duplication across filters.
class QueryService
{
public:
    // Bytes of event JSON one answer (an HTTP /query body, a REQ's history) may hold: the largest
    // canvas ancestry walk a client makes (256 revisions of 64 KiB) fits with room to spare. An
    // answer past it is refused, never cut short: a short page could read as the end of history.
    static constexpr std::size_t kMaxResponseBytes = 32 * 1024 * 1024;
    static constexpr const char *kResponseTooLarge =
        "invalid: response exceeds 33554432 bytes; lower limit or narrow the filters";

    explicit QueryService(routing::ReadRouter &router)
        : m_router(router)
    { }

    // Answers are charged to `budget` while they are assembled (null: unbounded); set before
    // the first read.
    void setOutboundBudget(std::shared_ptr<OutboundBudget> budget) { m_budget = std::move(budget); }

    QueryResult query(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);
    QueryResult count(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                      ReadPath path);
    AdmissionResult admit(const std::vector<nostr::Filter> &filters, const RequestContext &context);
    bool canRead(const std::string &community, const std::string &channel,
                 const std::string &pubkey);

    static bool isHttpPath(ReadPath path);

    // The channels a viewer may read, as the writer knows them.
    struct WriterAccess
    {
        std::vector<std::string> channels;
        std::unordered_set<std::string> readable;
    };

private:
    // The routed read shared by query and count: HTTP gates, a lease from the router, one
    // settlement, at most one re-run on the writer. readAll(lease, result, attempt) runs the
    // statements; false = a statement would not prepare (internal error).
    template<class ReadAll>
    QueryResult runRouted(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                          ReadPath path, ReadAll readAll,
                          std::vector<ReadRequest::LiveScope> liveScopes = {});
    // 403 message when an HTTP request fails a gate (p-gated or engram kinds), else empty.
    static std::string httpGateFailure(const std::vector<nostr::Filter> &filters,
                                       const std::string &viewer);
    // Read on the writer when the rows may come from a replica; nullopt when the read is served
    // by the writer anyway (then access is read on its own lease) or failed (`failed`).
    std::optional<WriterAccess> writerAccess(const std::vector<nostr::Filter> &filters,
                                             ReadPath path, const RequestContext &context,
                                             bool &failed);
    static ReadRequest readRequestFor(const std::vector<nostr::Filter> &filters, ReadPath path);
    // A subscription's history, when a replica may serve it: the scopes its rows can come from.
    static std::vector<ReadRequest::LiveScope>
    liveScopesFor(const std::vector<nostr::Filter> &filters, ReadPath path,
                  const WriterAccess *access);

    routing::ReadRouter &m_router;
    std::shared_ptr<OutboundBudget> m_budget;
};

} // namespace buzz::relay::query
