// Filter parse (one object and the /query list form): never crash; an accepted filter serialises
// to JSON that parses back to the same filter.

#include "FuzzCheck.h"

#include "net/nostr/Filter.h"

#include <nlohmann/json.hpp>

using buzz::nostr::Filter;

namespace {

void checkRoundTrip(const Filter &filter)
{
    const std::string once = filter.toJson();
    const auto again = Filter::fromJson(std::string_view(once));
    FUZZ_CHECK(bool(again), "toJson output of an accepted filter does not parse back");
    FUZZ_CHECK(again->toJson() == once, "filter changed across parse → toJson → parse");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (const auto one = Filter::fromJson(text))
        checkRoundTrip(*one);
    if (const auto list = Filter::listFromJson(text)) {
        for (const Filter &filter : *list)
            checkRoundTrip(filter);
        // A relay serves ids/authors literally; an accepted list must be usable for matching.
        buzz::nostr::Event probe;
        probe.kind = 1;
        for (const Filter &filter : *list)
            (void)filter.matches(probe);
    }
    return 0;
}
