// The relay's WebSocket client-message parser (relay/server/WsProtocol): never crash, enforce its
// own limits on what it accepts, and the frames the relay writes back are always valid JSON even
// when they carry fuzzed subscription ids and messages.

#include "FuzzCheck.h"

#include "relay/server/WsProtocol.h"

#include <QString>

#include <nlohmann/json.hpp>

namespace ws = buzz::relay::ws;

namespace {

// What the client receives: WsSession::send turns the frame into a QString (invalid UTF-8 becomes
// U+FFFD) before the socket writes it. The relay's parse errors quote nlohmann's "last read"
// excerpt, which can end inside a multi-byte character; the socket repairs that, so the check is
// made on the wire form.
bool isJson(const std::string &frame)
{
    const QByteArray wire = QString::fromUtf8(frame.data(), qsizetype(frame.size())).toUtf8();
    return !nlohmann::json::parse(wire.begin(), wire.end(), nullptr, false).is_discarded();
}

void checkSubscription(const std::string &id, const std::vector<buzz::nostr::Filter> &filters)
{
    FUZZ_CHECK(!id.empty() && id.size() <= ws::kMaxSubscriptionIdBytes,
               "subscription id out of limits");
    FUZZ_CHECK(filters.size() <= ws::kMaxFilters, "more filters than the relay allows");
    FUZZ_CHECK(isJson(ws::eoseFrame(id)), "EOSE frame with this id is not JSON");
    FUZZ_CHECK(isJson(ws::closedFrame(id, id)), "CLOSED frame with this id is not JSON");
    FUZZ_CHECK(isJson(ws::countFrame(id, 7)), "COUNT frame with this id is not JSON");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const auto message = ws::parseClientMessage(text);
    // Frames built from invalid UTF-8 (binary frames) are not JSON text either; the socket
    // replaces such bytes when it sends. The frame checks below need text a client could send.
    if (!fuzzutil::isUtf8(text))
        return 0;
    if (!message) {
        // The NOTICE carrying the parse error goes back to the client, quoting its input.
        FUZZ_CHECK(isJson(ws::parseErrorNotice(message.error())),
                   "NOTICE for a parse error is not JSON");
        return 0;
    }
    if (const auto *event = std::get_if<ws::EventMessage>(&*message)) {
        const std::string json = event->event.toJson();
        FUZZ_CHECK(isJson(ws::eventFrame("s", json)), "EVENT frame is not JSON");
        FUZZ_CHECK(isJson(ws::okFrame(event->event.id, false, event->event.content)),
                   "OK frame with the event's content as message is not JSON");
    } else if (const auto *req = std::get_if<ws::ReqMessage>(&*message)) {
        checkSubscription(req->subscriptionId, req->filters);
    } else if (const auto *count = std::get_if<ws::CountMessage>(&*message)) {
        checkSubscription(count->subscriptionId, count->filters);
    } else if (const auto *close = std::get_if<ws::CloseMessage>(&*message)) {
        FUZZ_CHECK(isJson(ws::closedFrame(close->subscriptionId, "closed")),
                   "CLOSED frame is not JSON");
    } else if (const auto *auth = std::get_if<ws::AuthMessage>(&*message)) {
        FUZZ_CHECK(isJson(ws::authFrame(auth->event.content)), "AUTH frame is not JSON");
    }
    return 0;
}
