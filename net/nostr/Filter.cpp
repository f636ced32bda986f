#include "net/nostr/Filter.h"

#include "net/nostr/Hex.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace buzz::nostr {

namespace {

using nlohmann::json;

Unexpected<std::string> filterFieldError(std::string_view field, std::string_view what)
{
    return Unexpected(std::string(field) + ": " + std::string(what));
}

const json *present(const json &object, const char *name)
{
    const auto it = object.find(name);
    if (it == object.end() || it->is_null())
        return nullptr; // serde reads null as absent
    return &*it;
}

bool readNonNegative(const json &value, std::int64_t &out)
{
    if (value.is_number_unsigned()) {
        const auto unsignedValue = value.get<std::uint64_t>();
        out = unsignedValue > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
            ? std::numeric_limits<std::int64_t>::max()
            : static_cast<std::int64_t>(unsignedValue);
        return true;
    }
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
        out = value.get<std::int64_t>();
        return true;
    }
    return false;
}

int clampToInt(std::int64_t value)
{
    return static_cast<int>(std::min<std::int64_t>(value, std::numeric_limits<int>::max()));
}

bool readHexList(const json &value, std::vector<std::string> &out)
{
    if (!value.is_array())
        return false;
    out.reserve(value.size());
    for (const json &item : value) {
        if (!item.is_string() || !isLowerHex(item.get_ref<const std::string &>(), 64))
            return false;
        out.push_back(item.get_ref<const std::string &>());
    }
    return true;
}

// Accepts either case (the cursor is usually copied from an id) and keeps the wire form.
std::optional<std::string> readCursorId(const json &value)
{
    if (!value.is_string())
        return std::nullopt;
    std::string id = value.get<std::string>();
    std::uint8_t bytes[32];
    if (!fromHex(id, bytes, sizeof bytes))
        return std::nullopt;
    std::transform(id.begin(), id.end(), id.begin(),
                   [](char c) { return c >= 'A' && c <= 'F' ? char(c + 32) : c; });
    return id;
}

bool contains(const std::vector<std::string> &values, const std::string &value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

} // namespace

Expected<Filter> Filter::fromJson(const json &object)
{
    if (!object.is_object())
        return Unexpected(std::string("filter: must be a JSON object"));
    Filter filter;

    if (const json *ids = present(object, "ids")) {
        filter.ids.emplace();
        if (!readHexList(*ids, *filter.ids))
            return filterFieldError("ids", "must be an array of 64-character lower-case hex ids");
    }
    if (const json *authors = present(object, "authors")) {
        filter.authors.emplace();
        if (!readHexList(*authors, *filter.authors))
            return filterFieldError("authors",
                                    "must be an array of 64-character lower-case hex public keys");
    }
    if (const json *kinds = present(object, "kinds")) {
        if (!kinds->is_array())
            return filterFieldError("kinds", "must be an array of integers in 0..65535");
        filter.kinds.emplace();
        filter.kinds->reserve(kinds->size());
        for (const json &kind : *kinds) {
            std::int64_t value = 0;
            if (!readNonNegative(kind, value) || value > 65535)
                return filterFieldError("kinds", "must be an array of integers in 0..65535");
            filter.kinds->push_back(static_cast<int>(value));
        }
    }
    for (const auto &[key, value] : object.items()) {
        if (key.size() != 2 || key[0] != '#' || !isAsciiLetter(key[1]))
            continue;
        if (value.is_null())
            continue;
        if (!value.is_array())
            return filterFieldError(key, "must be an array of strings");
        std::vector<std::string> &values = filter.tags[key[1]];
        values.reserve(value.size());
        for (const json &item : value) {
            if (!item.is_string())
                return filterFieldError(key, "must be an array of strings");
            values.push_back(item.get_ref<const std::string &>());
        }
    }
    if (const json *since = present(object, "since")) {
        std::int64_t value = 0;
        if (!readNonNegative(*since, value))
            return filterFieldError("since", "must be a non-negative integer");
        filter.since = value;
    }
    if (const json *until = present(object, "until")) {
        std::int64_t value = 0;
        if (!readNonNegative(*until, value))
            return filterFieldError("until", "must be a non-negative integer");
        filter.until = value;
    }
    if (const json *limit = present(object, "limit")) {
        std::int64_t value = 0;
        if (!readNonNegative(*limit, value))
            return filterFieldError("limit", "must be a non-negative integer");
        filter.limit = clampToInt(value);
    }
    if (const json *search = present(object, "search")) {
        if (!search->is_string())
            return filterFieldError("search", "must be a string");
        filter.search = search->get<std::string>();
    }

    if (const auto it = object.find("consistency"); it != object.end()) {
        if (!it->is_string() || it->get_ref<const std::string &>() != "strong")
            return Unexpected("consistency must be \"strong\" when present (got " + it->dump()
                              + ")");
        filter.consistency = Consistency::Strong;
    }
    if (const json *beforeId = present(object, "before_id")) {
        if (!filter.until)
            return Unexpected(std::string("before_id requires until to be set"));
        filter.beforeId = readCursorId(*beforeId);
        if (!filter.beforeId)
            return Unexpected(std::string("before_id must be a 64-character hex event id"));
    }
    if (const json *afterId = present(object, "after_id")) {
        if (!filter.since)
            return Unexpected(std::string("after_id requires since to be set"));
        filter.afterId = readCursorId(*afterId);
        if (!filter.afterId)
            return Unexpected(std::string("after_id must be a 64-character hex event id"));
    }
    if (const json *depthLimit = present(object, "depth_limit")) {
        std::int64_t value = 0;
        if (!readNonNegative(*depthLimit, value)
            || value > std::numeric_limits<std::uint32_t>::max())
            return filterFieldError("depth_limit", "must be a non-negative 32-bit integer");
        filter.depthLimit = clampToInt(value);
    }
    return filter;
}

Expected<Filter> Filter::fromJson(std::string_view text)
{
    const json parsed = json::parse(text.begin(), text.end(), nullptr, false);
    if (parsed.is_discarded())
        return Unexpected(std::string("filter: invalid JSON"));
    return fromJson(parsed);
}

Expected<std::vector<Filter>> Filter::listFromJson(std::string_view text)
{
    const json parsed = json::parse(text.begin(), text.end(), nullptr, false);
    if (parsed.is_discarded())
        return Unexpected(std::string("filters: invalid JSON"));
    if (!parsed.is_array())
        return Unexpected(std::string("filters: must be a JSON array of filter objects"));
    std::vector<Filter> filters;
    filters.reserve(parsed.size());
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        Expected<Filter> filter = fromJson(parsed[i]);
        if (!filter)
            return Unexpected("filter " + std::to_string(i) + ": " + filter.error());
        filters.push_back(std::move(filter).value());
    }
    return filters;
}

json Filter::toJsonValue() const
{
    json object = json::object();
    if (ids)
        object["ids"] = *ids;
    if (authors)
        object["authors"] = *authors;
    if (kinds)
        object["kinds"] = *kinds;
    for (const auto &[letter, values] : tags)
        object[std::string {'#', letter}] = values;
    if (since)
        object["since"] = *since;
    if (until)
        object["until"] = *until;
    if (limit)
        object["limit"] = *limit;
    if (search)
        object["search"] = *search;
    if (consistency == Consistency::Strong)
        object["consistency"] = "strong";
    if (beforeId)
        object["before_id"] = *beforeId;
    if (afterId)
        object["after_id"] = *afterId;
    if (depthLimit)
        object["depth_limit"] = *depthLimit;
    return object;
}

std::string Filter::toJson() const
{
    return toJsonValue().dump();
}

bool Filter::matches(const Event &event) const
{
    if (ids && !contains(*ids, event.id))
        return false;
    if (authors && !contains(*authors, event.pubkey))
        return false;
    if (kinds && std::find(kinds->begin(), kinds->end(), event.kind) == kinds->end())
        return false;
    if (since && event.createdAt < *since)
        return false;
    if (until && event.createdAt > *until)
        return false;
    // Not a structured binding: clang before 16 cannot capture those in a lambda (fuzz build).
    for (const auto &entry : tags) {
        const char letter = entry.first;
        const auto &values = entry.second;
        const bool found = std::any_of(event.tags.begin(), event.tags.end(), [&](const Tag &tag) {
            return tag.size() >= 2 && tag[0].size() == 1 && tag[0][0] == letter
                && contains(values, tag[1]);
        });
        if (!found)
            return false;
    }
    return true;
}

std::optional<std::string> Filter::singleChannel() const
{
    const auto it = tags.find('h');
    if (it == tags.end() || it->second.size() != 1)
        return std::nullopt;
    return it->second.front();
}

} // namespace buzz::nostr
