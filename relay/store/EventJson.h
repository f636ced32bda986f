#pragma once

// An event's wire JSON rebuilt from its stored fields, shared by both stores' readers
// (SqliteEventReader on SQLite, PgEventReader on PostgreSQL): the rows keep no copy of the JSON, so
// this is what every read answers with, and it must be byte for byte what Event::toJson produced
// at ingest (clients re-hash it to check the id).

#include "net/nostr/Event.h"

#include <string>
#include <string_view>

namespace buzz::relay::store {

class EventJson
{
public:
    // The tags column (a JSON array of arrays of strings) as tags; anything else is no tags.
    static nostr::Tags parseTags(std::string_view json);
    // Event::toJson's layout: `event`'s fields with `tagsJson`, its tags already in the canonical
    // form their id was computed over, spliced in as they are.
    static std::string canonical(const nostr::Event &event, std::string_view tagsJson);
};

} // namespace buzz::relay::store
