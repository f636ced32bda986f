#include "relay/server/HttpBridge.h"

#include "relay/server/WsProtocol.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>

#include <nlohmann/json.hpp>

#include <array>

namespace buzz::relay {

namespace {

std::string routeOf(HttpBridge::Endpoint endpoint)
{
    switch (endpoint) {
    case HttpBridge::Endpoint::Events:
        return "/events";
    case HttpBridge::Endpoint::Query:
        return "/query";
    case HttpBridge::Endpoint::Count:
        return "/count";
    }
    return "/";
}

// Validation messages the real relay returns verbatim instead of wrapping them in
// "invalid filters: …" (they come from its own extension-field checks, not from serde).
std::string filterErrorMessage(const std::string &error)
{
    static constexpr std::array<std::string_view, 3> verbatimPrefixes = {"before_id ", "after_id ",
                                                                         "consistency "};
    for (const auto prefix : verbatimPrefixes) {
        const auto at = error.find(prefix);
        if (at != std::string::npos && (at == 0 || error[at - 1] == ' '))
            return error.substr(at);
    }
    return "invalid filters: " + error;
}

HttpReply withRouteHeader(HttpReply reply, const QueryResult &result)
{
    reply.headers.emplace_back("X-Buzz-Read-Route",
                               QByteArray::fromStdString(result.routeDescription()));
    return reply;
}

// Non-Ok read outcomes, as documented in RelayEngine.h (503s are not to be retried blindly).
HttpReply readFailure(const QueryResult &result)
{
    switch (result.status) {
    case QueryResult::Status::BadRequest:
        return HttpReply::error(400, result.message);
    case QueryResult::Status::Forbidden:
        return HttpReply::error(403, result.message);
    case QueryResult::Status::TimedOut:
        return HttpReply::error(503, "query timed out");
    case QueryResult::Status::Retryable: {
        HttpReply reply =
            HttpReply::error(503, result.message.empty() ? "retryable" : result.message);
        reply.headers.emplace_back("Retry-After", "1");
        return reply;
    }
    case QueryResult::Status::Internal:
    case QueryResult::Status::Ok:
        break;
    }
    return HttpReply::error(500, "internal server error");
}

HttpReply submitEvent(const HttpBridge::Request &request, const RequestContext &context,
                      RelayEngine &engine)
{
    auto event = nostr::Event::fromJson(std::string_view(request.body));
    if (!event)
        return HttpReply::error(400, "invalid event JSON: " + event.error());
    const IngestResult result = engine.ingest(*event, context);
    if (result.accepted() || result.status == IngestResult::Status::RejectedDuplicate) {
        nlohmann::ordered_json body;
        body["event_id"] = event->id;
        body["accepted"] = result.accepted();
        body["message"] = result.message;
        return HttpReply::json(body.dump());
    }
    if (result.status == IngestResult::Status::Internal)
        return HttpReply::error(500, "internal server error");
    return HttpReply::error(result.httpStatus(), result.message);
}

HttpReply readEvents(const HttpBridge::Request &request, const RequestContext &context,
                     RelayEngine &engine)
{
    auto filters = nostr::Filter::listFromJson(request.body);
    if (!filters)
        return HttpReply::error(400, filterErrorMessage(filters.error()));
    // The WebSocket cap (docs/buzz-protocol.md §WebSocket limits) holds here too: with ≤ 1 000 rows
    // per filter it bounds the rows of one answer; QueryService bounds its bytes.
    if (filters->size() > ws::kMaxFilters)
        return HttpReply::error(400,
                                "invalid filters: request contains "
                                    + std::to_string(filters->size()) + " filters, maximum is "
                                    + std::to_string(ws::kMaxFilters));
    if (request.endpoint == HttpBridge::Endpoint::Count) {
        const QueryResult result = engine.count(*filters, context, ReadPath::BridgeCount);
        if (result.status != QueryResult::Status::Ok)
            return withRouteHeader(readFailure(result), result);
        return withRouteHeader(HttpReply::json("{\"count\":" + std::to_string(result.count) + "}"),
                               result);
    }
    QueryResult result = engine.query(*filters, context, ReadPath::BridgeQuery);
    if (result.status != QueryResult::Status::Ok)
        return withRouteHeader(readFailure(result), result);
    std::size_t size = 2;
    for (const auto &stored : result.events)
        size += stored.json.size() + 1;
    std::string body;
    body.reserve(size);
    body += '[';
    for (std::size_t i = 0; i < result.events.size(); ++i) {
        if (i)
            body += ',';
        body += result.events[i].json; // verbatim wire JSON, never re-serialised
    }
    body += ']';
    HttpReply reply = withRouteHeader(HttpReply::json(std::move(body)), result);
    reply.hold = std::move(result.hold); // held until the answer is written
    return reply;
}

} // namespace

HttpBridge::HttpBridge(const ServerContext &context, HttpAuthenticator &authenticator,
                       QObject *parent)
    : QObject(parent)
    , m_context(context)
    , m_authenticator(authenticator)
{ }

HttpBridge::~HttpBridge() = default;

HttpReply HttpBridge::process(const Request &request, HttpAuthenticator &authenticator,
                              RelayEngine &engine, const RelayMembership *membership)
{
    HttpAuthenticator::Request authRequest;
    authRequest.authorization = request.authorization;
    authRequest.devPubkey = request.devPubkey;
    authRequest.method = "POST";
    authRequest.path = request.path;
    authRequest.body = request.body;
    authRequest.host = request.host;
    auto pubkey = authenticator.authenticate(authRequest);
    if (!pubkey)
        return HttpReply::error(pubkey.error().httpStatus, pubkey.error().message);
    // After the replay check, as upstream: a refused non-member has still spent its NIP-98 event.
    if (membership && !membership->admits(*pubkey))
        return HttpReply::json(std::string(RelayMembership::kHttpRefusalBody), 403);

    const RequestContext context {request.community, *pubkey, Transport::Http};
    if (request.endpoint == Endpoint::Events)
        return submitEvent(request, context, engine);
    return readEvents(request, context, engine);
}

void HttpBridge::handle(Endpoint endpoint, std::string community, const QHttpServerRequest &request,
                        QHttpServerResponder &&responder)
{
    auto input = std::make_shared<Request>();
    input->endpoint = endpoint;
    input->path = routeOf(endpoint);
    input->community = std::move(community);
    input->host = request.value("Host").toStdString();
    input->authorization = request.value("Authorization").toStdString();
    input->devPubkey = request.value("X-Pubkey").toStdString();
    input->body = request.body().toStdString();

    const std::uint64_t ticket = m_nextTicket++;
    // Takes the request's place in its connection's answer order now, while QHttpServer hands
    // requests over in the order they arrived.
    m_pending.emplace(ticket, Pending {OrderedReply(std::move(responder)), input->path});

    HttpAuthenticator *authenticator = &m_authenticator;
    RelayEngine *engine = m_context.engine;
    const RelayMembership *membership = m_context.membership;
    m_context.runOffThread(
        this,
        [input, authenticator, engine, membership] {
            return process(*input, *authenticator, *engine, membership);
        },
        [this, ticket](HttpReply reply) { respond(ticket, std::move(reply)); });
}

void HttpBridge::respond(std::uint64_t ticket, HttpReply reply)
{
    auto node = m_pending.extract(ticket);
    if (node.empty())
        return;
    Pending &pending = node.mapped();
    m_context.metrics->increment(ServerMetrics::httpSeries(pending.route, reply.status));
    if (reply.status == 503 && reply.body.find(OutboundBudget::kFullMessage) != std::string::npos) {
        m_context.metrics->increment(
            ServerMetrics::labelled("buzz_http_reads_refused_total", "reason", "outbound_memory"));
        // The rows read before the refusal (a megabyte or more) were freed on a worker.
        if (m_context.releaseMemory)
            m_context.releaseMemory();
    }
    // Nothing when the client hung up: the write (if any) already committed, nobody to tell.
    pending.reply.send(std::move(reply));
}

} // namespace buzz::relay
