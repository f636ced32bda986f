#pragma once

#include "net/nostr/Event.h"
#include "net/nostr/Expected.h"
#include "net/nostr/Filter.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// NIP-01 frames between client and relay, with the real relay's limits and parse errors
// (docs/buzz-protocol.md §WebSocket).
namespace buzz::relay::ws {

constexpr std::size_t kMaxFrameBytes = 65536;
constexpr std::size_t kMaxFilters = 10;
constexpr std::size_t kMaxSubscriptionIdBytes = 256;
constexpr std::size_t kMaxSubscriptions = 1024;

struct AuthMessage
{
    nostr::Event event;
};
struct EventMessage
{
    nostr::Event event;
};
struct ReqMessage
{
    std::string subscriptionId;
    std::vector<nostr::Filter> filters;
};
struct CountMessage
{
    std::string subscriptionId;
    std::vector<nostr::Filter> filters;
};
struct CloseMessage
{
    std::string subscriptionId;
};
using ClientMessage =
    std::variant<AuthMessage, EventMessage, ReqMessage, CountMessage, CloseMessage>;

// The error is the detail the relay puts after "invalid message: Invalid message format: ",
// e.g. "REQ contains 11 filters, maximum is 10".
Expected<ClientMessage> parseClientMessage(std::string_view text);
std::string parseErrorNotice(std::string_view detail);

// Relay → client frames. `eventJson` is inserted verbatim (never re-serialised).
std::string authFrame(std::string_view challenge);
std::string okFrame(std::string_view eventId, bool accepted, std::string_view message);
std::string eventFrame(std::string_view subscriptionId, std::string_view eventJson);
// `readRoute` (our extension, relay/README.md "Read routing"): how the history was served, as in
// X-Buzz-Read-Route, in a third element {"read_route":"…"} that NIP-01 clients ignore; empty:
// the plain two-element EOSE.
std::string eoseFrame(std::string_view subscriptionId, std::string_view readRoute = {});
std::string closedFrame(std::string_view subscriptionId, std::string_view reason);
std::string noticeFrame(std::string_view message);
std::string countFrame(std::string_view subscriptionId, std::int64_t count);

} // namespace buzz::relay::ws
