#include "relay/store/EventJson.h"

#include "net/nostr/CanonicalJson.h"

#include <nlohmann/json.hpp>

namespace buzz::relay::store {

nostr::Tags EventJson::parseTags(std::string_view json)
{
    nostr::Tags tags;
    const auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (!parsed.is_array())
        return tags;
    tags.reserve(parsed.size());
    for (const auto &tag : parsed) {
        nostr::Tag values;
        values.reserve(tag.size());
        for (const auto &value : tag)
            values.push_back(value.is_string() ? value.get<std::string>() : value.dump());
        tags.push_back(std::move(values));
    }
    return tags;
}

std::string EventJson::canonical(const nostr::Event &event, std::string_view tagsJson)
{
    std::string json;
    json.reserve(event.content.size() + event.content.size() / 8 + tagsJson.size() + 300);
    json += "{\"id\":\"";
    json += event.id;
    json += "\",\"pubkey\":\"";
    json += event.pubkey;
    json += "\",\"created_at\":";
    json += std::to_string(event.createdAt);
    json += ",\"kind\":";
    json += std::to_string(event.kind);
    json += ",\"tags\":";
    json += tagsJson;
    json += ",\"content\":";
    nostr::appendJsonString(json, event.content);
    json += ",\"sig\":\"";
    json += event.sig;
    json += "\"}";
    return json;
}

} // namespace buzz::relay::store
