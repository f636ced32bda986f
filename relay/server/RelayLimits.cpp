#include "relay/server/RelayLimits.h"

#include "relay/auth/HttpAuthenticator.h"
#include "relay/ingest/CanvasCas.h"
#include "relay/ingest/EventPrechecks.h"
#include "relay/ingest/IngestPipeline.h"
#include "relay/model/PresenceTable.h"
#include "relay/model/ReadLimits.h"
#include "relay/query/FilterLimits.h"
#include "relay/query/QueryService.h"
#include "relay/server/AdminApi.h"
#include "relay/server/GuardedTcpServer.h"
#include "relay/server/OutboundQueue.h"
#include "relay/server/ServerContext.h"
#include "relay/server/WsProtocol.h"

namespace buzz::relay {

std::string formatBytes(std::size_t bytes)
{
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        return std::to_string(bytes / (1024 * 1024)) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0)
        return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::string formatMilliseconds(std::int64_t ms)
{
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + " s";
    return std::to_string(ms) + " ms";
}

std::vector<RelayLimit> relayLimits(const RelayServer::Options &options)
{
    const HttpLimits &http = options.httpLimits;
    const std::string perFilter = std::to_string(ReadLimits::kMaxLimit);
    const std::string filters = std::to_string(ws::kMaxFilters);
    return {
        {"HTTP request head (request line + headers)", formatBytes(http.maxHeadBytes),
         "431, connection closed", ""},
        {"HTTP body (Content-Length or the sum of chunks)", formatBytes(http.maxBodyBytes),
         "413 from the headers alone, body never read", ""},
        {"HTTP head timeout (first byte of a head to its end)",
         formatMilliseconds(http.headTimeoutMs), "408, connection closed",
         "--http-head-timeout-ms"},
        {"HTTP body timeout (end of the head to the end of the body)",
         formatMilliseconds(http.bodyTimeoutMs), "408, connection closed",
         "--http-body-timeout-ms"},
        {"HTTP idle timeout (no request in progress, nothing being sent)",
         formatMilliseconds(http.idleTimeoutMs), "connection closed", "--http-idle-timeout-ms"},
        {"requests asking for an upgrade", "only a WebSocket handshake leaves HTTP",
         "any other upgrade is answered over HTTP/1.1 under every HTTP limit; a request naming "
         "WebSocket that is not GET / over HTTP/1.1 with version 13, a 16-byte key and no body: "
         "400/405/426, connection closed",
         ""},
        {"accept() out of file descriptors",
         "retried every " + formatMilliseconds(GuardedTcpServer::kAcceptRetryMs),
         "new connections wait in the backlog", ""},
        {"filters per /query, /count, REQ or COUNT", filters,
         "400 / CLOSED invalid: ... contains N filters, maximum is " + filters, ""},
        {"values per filter field (ids, authors, kinds, each #x)",
         std::to_string(query::FilterLimits::kMaxValuesPerField),
         "invalid: filter <field> has N values, maximum is "
             + std::to_string(query::FilterLimits::kMaxValuesPerField),
         ""},
        {"rows per filter", perFilter, "a larger limit is lowered to " + perFilter, ""},
        {"bytes of event JSON per answer", formatBytes(query::QueryService::kMaxResponseBytes),
         "400 / CLOSED invalid: response exceeds ... (refused, never cut short)", ""},
        {"WebSocket frame in", formatBytes(ws::kMaxFrameBytes), "socket closed (1009)", ""},
        {"WebSocket client frames", "masked (RFC 6455 5.1)",
         "closed with 1002 before the frame is acted on", ""},
        {"WebSocket subscriptions per connection", std::to_string(ws::kMaxSubscriptions), "CLOSED",
         ""},
        {"WebSocket subscription id", formatBytes(ws::kMaxSubscriptionIdBytes), "CLOSED", ""},
        {"WebSocket live fan-out waiting",
         std::to_string(OutboundQueue::kDefaultCapacity) + " frames",
         "live event dropped; " + std::to_string(OutboundQueue::kDefaultMaxConsecutiveFull)
             + " in a row disconnect",
         ""},
        {"WebSocket bytes waiting unread (pongs included)", formatBytes(options.maxOutboundBytes),
         "disconnected as a slow consumer", ""},
        {"memory held for all clients together (answers being assembled, bytes waiting unread)",
         formatBytes(options.maxRelayOutboundBytes),
         "answers over " + formatBytes(OutboundBudget::kSmallAnswerBytes)
             + " refused: 503 / CLOSED error: retryable: " + OutboundBudget::kFullMessage
             + "; the connections holding the most unread bytes are cut",
         "--max-outbound-mb"},
        {"WebSocket liveness", "ping every " + formatMilliseconds(options.pingIntervalMs),
         std::to_string(ServerContext {}.maxUnansweredPings) + " unanswered: disconnect", ""},
        {"WebSocket connections", std::to_string(options.maxConnections), "excess closed silently",
         "--max-connections"},
        {"event content", formatBytes(ingest::EventPrechecks::kMaxContentBytes),
         "invalid: content exceeds maximum size of "
             + std::to_string(ingest::EventPrechecks::kMaxContentBytes) + " bytes (got N)",
         ""},
        {"presence status (kind 20001 content)",
         formatBytes(ingest::IngestPipeline::kMaxPresenceBytes) + ", kept "
             + std::to_string(PresenceTable::kTtlSeconds) + " s",
         "invalid: presence status exceeds "
             + std::to_string(ingest::IngestPipeline::kMaxPresenceBytes)
             + " bytes; a status not renewed is no longer answered",
         ""},
        {"event created_at from the relay clock",
         "+/- " + std::to_string(ingest::EventPrechecks::kMaxClockSkewSeconds) + " s",
         "invalid: event timestamp too far from server time", ""},
        {"canvas revision ahead of the relay clock",
         std::to_string(ingest::CanvasCas::kMaxFutureSeconds) + " s",
         "invalid: canvas event timestamp too far in the future", ""},
        {"NIP-98 replay memory", std::to_string(HttpAuthenticator::kReplayMemorySecs) + " s",
         "401 NIP-98: replay detected", ""},
        {"POST /admin/clock offset",
         "+/- " + std::to_string(AdminApi::kMaxClockOffsetDays) + " days",
         "400 offset_ms must be between ...", ""},
    };
}

} // namespace buzz::relay
