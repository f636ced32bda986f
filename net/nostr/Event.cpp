#include "net/nostr/Event.h"

#include "net/nostr/CanonicalJson.h"
#include "net/nostr/EventParser.h"
#include "net/nostr/Hex.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Sha256.h"

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cstring>
#include <limits>

namespace buzz::nostr {

namespace {

using nlohmann::json;

void appendInteger(std::string &out, std::int64_t value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendTags(std::string &out, const Tags &tags)
{
    out.push_back('[');
    for (std::size_t t = 0; t < tags.size(); ++t) {
        if (t)
            out.push_back(',');
        out.push_back('[');
        const Tag &tag = tags[t];
        for (std::size_t i = 0; i < tag.size(); ++i) {
            if (i)
                out.push_back(',');
            appendJsonString(out, tag[i]);
        }
        out.push_back(']');
    }
    out.push_back(']');
}

std::size_t estimatedSize(const Event &event)
{
    std::size_t size = 96 + event.content.size() + event.pubkey.size();
    for (const Tag &tag : event.tags) {
        size += 3;
        for (const std::string &value : tag)
            size += value.size() + 3;
    }
    return size;
}

void appendCanonical(std::string &out, const Event &event)
{
    out.append("[0,");
    appendJsonString(out, event.pubkey);
    out.push_back(',');
    appendInteger(out, event.createdAt);
    out.push_back(',');
    appendInteger(out, event.kind);
    out.push_back(',');
    appendTags(out, event.tags);
    out.push_back(',');
    appendJsonString(out, event.content);
    out.push_back(']');
}

const json *member(const json &object, const char *name)
{
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

Unexpected<std::string> eventFieldError(const char *field, const char *what)
{
    return Unexpected(std::string(field) + ": " + what);
}

} // namespace

Expected<Event> Event::fromJson(std::string_view text)
{
    Event event;
    if (detail::parseEventFast(text, event))
        return event;
    const json parsed = json::parse(text.begin(), text.end(), nullptr, false);
    if (parsed.is_discarded())
        return Unexpected(std::string("event: invalid JSON"));
    return fromJson(parsed);
}

Expected<Event> Event::fromJson(const json &object)
{
    if (!object.is_object())
        return Unexpected(std::string("event: must be a JSON object"));
    Event event;

    const json *id = member(object, "id");
    if (!id)
        return eventFieldError("id", "missing");
    if (!id->is_string() || !isLowerHex(id->get_ref<const std::string &>(), 64))
        return eventFieldError("id", "must be 64 lower-case hex characters");
    event.id = id->get_ref<const std::string &>();

    const json *pubkey = member(object, "pubkey");
    if (!pubkey)
        return eventFieldError("pubkey", "missing");
    if (!pubkey->is_string() || !isLowerHex(pubkey->get_ref<const std::string &>(), 64))
        return eventFieldError("pubkey", "must be 64 lower-case hex characters");
    event.pubkey = pubkey->get_ref<const std::string &>();

    const json *createdAt = member(object, "created_at");
    if (!createdAt)
        return eventFieldError("created_at", "missing");
    if (createdAt->is_number_unsigned()) {
        const auto value = createdAt->get<std::uint64_t>();
        if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return eventFieldError("created_at", "must be a non-negative integer");
        event.createdAt = static_cast<std::int64_t>(value);
    } else if (createdAt->is_number_integer() && createdAt->get<std::int64_t>() >= 0) {
        event.createdAt = createdAt->get<std::int64_t>();
    } else {
        return eventFieldError("created_at", "must be a non-negative integer");
    }

    const json *kind = member(object, "kind");
    if (!kind)
        return eventFieldError("kind", "missing");
    if (!kind->is_number_integer() || kind->get<std::int64_t>() < 0
        || (kind->is_number_unsigned() ? kind->get<std::uint64_t>() > 65535
                                       : kind->get<std::int64_t>() > 65535))
        return eventFieldError("kind", "must be an integer in 0..65535");
    event.kind = static_cast<int>(kind->get<std::int64_t>());

    const json *tags = member(object, "tags");
    if (!tags)
        return eventFieldError("tags", "missing");
    if (!tags->is_array())
        return eventFieldError("tags", "must be an array of arrays of strings");
    event.tags.reserve(tags->size());
    for (const json &tag : *tags) {
        if (!tag.is_array())
            return eventFieldError("tags", "must be an array of arrays of strings");
        Tag &values = event.tags.emplace_back();
        values.reserve(tag.size());
        for (const json &value : tag) {
            if (!value.is_string())
                return eventFieldError("tags", "must be an array of arrays of strings");
            values.push_back(value.get_ref<const std::string &>());
        }
    }

    const json *content = member(object, "content");
    if (!content)
        return eventFieldError("content", "missing");
    if (!content->is_string())
        return eventFieldError("content", "must be a string");
    event.content = content->get_ref<const std::string &>();

    const json *sig = member(object, "sig");
    if (!sig)
        return eventFieldError("sig", "missing");
    if (!sig->is_string() || !isLowerHex(sig->get_ref<const std::string &>(), 128))
        return eventFieldError("sig", "must be 128 lower-case hex characters");
    event.sig = sig->get_ref<const std::string &>();

    return event;
}

json Event::toJsonValue() const
{
    json object = json::object();
    object["id"] = id;
    object["pubkey"] = pubkey;
    object["created_at"] = createdAt;
    object["kind"] = kind;
    object["tags"] = tags;
    object["content"] = content;
    object["sig"] = sig;
    return object;
}

std::string Event::toJson() const
{
    std::string out;
    out.reserve(estimatedSize(*this) + 256);
    out.append("{\"id\":");
    appendJsonString(out, id);
    out.append(",\"pubkey\":");
    appendJsonString(out, pubkey);
    out.append(",\"created_at\":");
    appendInteger(out, createdAt);
    out.append(",\"kind\":");
    appendInteger(out, kind);
    out.append(",\"tags\":");
    appendTags(out, tags);
    out.append(",\"content\":");
    appendJsonString(out, content);
    out.append(",\"sig\":");
    appendJsonString(out, sig);
    out.push_back('}');
    return out;
}

std::string Event::canonical() const
{
    std::string out;
    out.reserve(estimatedSize(*this));
    appendCanonical(out, *this);
    return out;
}

std::string Event::computeId() const
{
    return sha256Hex(canonical());
}

std::optional<std::string> Event::verificationError() const
{
    // Reused per thread: verification is the relay's hot path and the canonical form is rebuilt
    // for every event.
    thread_local std::string canonicalBuffer;
    canonicalBuffer.clear();
    canonicalBuffer.reserve(estimatedSize(*this));
    appendCanonical(canonicalBuffer, *this);
    const Sha256Digest digest = sha256(canonicalBuffer);

    std::array<std::uint8_t, 32> claimedId;
    if (!fromHex(id, claimedId.data(), claimedId.size())
        || std::memcmp(claimedId.data(), digest.data(), digest.size()) != 0)
        return "invalid event id: computed " + toHex(digest.data(), digest.size()) + ", got " + id;

    std::array<std::uint8_t, 32> publicKey;
    std::array<std::uint8_t, 64> signature;
    if (!fromHex(pubkey, publicKey.data(), publicKey.size())
        || !fromHex(sig, signature.data(), signature.size())
        || !verifySchnorrRaw(publicKey.data(), digest.data(), digest.size(), signature.data()))
        return std::string("invalid schnorr signature");
    return std::nullopt;
}

const std::string *Event::tagValue(std::string_view name) const
{
    for (const Tag &tag : tags) {
        if (tag.size() >= 2 && tag[0] == name)
            return &tag[1];
    }
    return nullptr;
}

std::vector<std::string> Event::tagValues(std::string_view name) const
{
    std::vector<std::string> values;
    for (const Tag &tag : tags) {
        if (tag.size() >= 2 && tag[0] == name)
            values.push_back(tag[1]);
    }
    return values;
}

int Event::tagCount(std::string_view name) const
{
    int count = 0;
    for (const Tag &tag : tags) {
        if (!tag.empty() && tag[0] == name)
            ++count;
    }
    return count;
}

bool isReplaceableKind(int kind)
{
    return kind == 0 || kind == 3 || kind == 41 || (kind >= 10000 && kind < 20000);
}

bool isParameterizedReplaceableKind(int kind)
{
    return kind >= 30000 && kind < 40000;
}

bool isEphemeralKind(int kind)
{
    return kind >= 20000 && kind < 30000;
}

} // namespace buzz::nostr
