#include "relay/server/WsProtocol.h"

#include "net/nostr/CanonicalJson.h"

#include <nlohmann/json.hpp>

namespace buzz::relay::ws {

namespace {

// REQ and COUNT share their shape and their limits; only the verb in the messages differs.
template<class Message>
Expected<ClientMessage> parseSubscriptionMessage(const nlohmann::json &frame, std::string_view verb)
{
    const std::string verbText(verb);
    if (frame.size() < 2 || !frame[1].is_string())
        return Unexpected(verbText + " sub_id must be a string");
    Message message;
    message.subscriptionId = frame[1].get<std::string>();
    if (message.subscriptionId.empty())
        return Unexpected(verbText + " sub_id must not be empty");
    if (message.subscriptionId.size() > kMaxSubscriptionIdBytes)
        return Unexpected(verbText + " sub_id exceeds maximum length of "
                          + std::to_string(kMaxSubscriptionIdBytes) + " bytes");
    const std::size_t filterCount = frame.size() - 2;
    if (filterCount > kMaxFilters)
        return Unexpected(verbText + " contains " + std::to_string(filterCount)
                          + " filters, maximum is " + std::to_string(kMaxFilters));
    if (filterCount == 0)
        return Unexpected(verbText + " must contain at least one filter");
    message.filters.reserve(filterCount);
    for (std::size_t i = 2; i < frame.size(); ++i) {
        auto filter = nostr::Filter::fromJson(frame[i]);
        if (!filter)
            return Unexpected("invalid filter: " + filter.error());
        message.filters.push_back(std::move(filter).value());
    }
    return ClientMessage(std::move(message));
}

Expected<nostr::Event> parseEventArgument(const nlohmann::json &frame, std::string_view verb)
{
    if (frame.size() < 2 || !frame[1].is_object())
        return Unexpected(std::string(verb) + " must carry an event object");
    auto event = nostr::Event::fromJson(frame[1]);
    if (!event)
        return Unexpected("invalid event: " + event.error());
    return event;
}

void appendString(std::string &out, std::string_view text)
{
    nostr::appendJsonString(out, text);
}

} // namespace

Expected<ClientMessage> parseClientMessage(std::string_view text)
{
    nlohmann::json frame;
    try {
        frame = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &error) {
        // parse_error, and out_of_range for a number that overflows (1e400): both are bad input.
        return Unexpected(std::string("invalid JSON: ") + error.what());
    }
    if (!frame.is_array() || frame.empty())
        return Unexpected(std::string("message must be a non-empty JSON array"));
    if (!frame[0].is_string())
        return Unexpected(std::string("message type must be a string"));
    const std::string &type = frame[0].get_ref<const std::string &>();

    if (type == "EVENT") {
        auto event = parseEventArgument(frame, type);
        if (!event)
            return Unexpected(event.error());
        return ClientMessage(EventMessage {std::move(event).value()});
    }
    if (type == "REQ")
        return parseSubscriptionMessage<ReqMessage>(frame, type);
    if (type == "COUNT")
        return parseSubscriptionMessage<CountMessage>(frame, type);
    if (type == "CLOSE") {
        if (frame.size() < 2 || !frame[1].is_string())
            return Unexpected(std::string("CLOSE sub_id must be a string"));
        return ClientMessage(CloseMessage {frame[1].get<std::string>()});
    }
    if (type == "AUTH") {
        auto event = parseEventArgument(frame, type);
        if (!event)
            return Unexpected(event.error());
        return ClientMessage(AuthMessage {std::move(event).value()});
    }
    return Unexpected("unknown message type: " + type);
}

std::string parseErrorNotice(std::string_view detail)
{
    return noticeFrame("invalid message: Invalid message format: " + std::string(detail));
}

std::string authFrame(std::string_view challenge)
{
    std::string out = "[\"AUTH\",";
    appendString(out, challenge);
    out += ']';
    return out;
}

std::string okFrame(std::string_view eventId, bool accepted, std::string_view message)
{
    std::string out = "[\"OK\",";
    appendString(out, eventId);
    out += accepted ? ",true," : ",false,";
    appendString(out, message);
    out += ']';
    return out;
}

std::string eventFrame(std::string_view subscriptionId, std::string_view eventJson)
{
    std::string out;
    out.reserve(eventJson.size() + subscriptionId.size() + 16);
    out += "[\"EVENT\",";
    appendString(out, subscriptionId);
    out += ',';
    out += eventJson;
    out += ']';
    return out;
}

std::string eoseFrame(std::string_view subscriptionId, std::string_view readRoute)
{
    std::string out = "[\"EOSE\",";
    appendString(out, subscriptionId);
    if (!readRoute.empty()) {
        out += ",{\"read_route\":";
        appendString(out, readRoute);
        out += '}';
    }
    out += ']';
    return out;
}

std::string closedFrame(std::string_view subscriptionId, std::string_view reason)
{
    std::string out = "[\"CLOSED\",";
    appendString(out, subscriptionId);
    out += ',';
    appendString(out, reason);
    out += ']';
    return out;
}

std::string noticeFrame(std::string_view message)
{
    std::string out = "[\"NOTICE\",";
    appendString(out, message);
    out += ']';
    return out;
}

std::string countFrame(std::string_view subscriptionId, std::int64_t count)
{
    std::string out = "[\"COUNT\",";
    appendString(out, subscriptionId);
    out += ",{\"count\":" + std::to_string(count) + "}]";
    return out;
}

} // namespace buzz::relay::ws
