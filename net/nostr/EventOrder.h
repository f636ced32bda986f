#pragma once

#include <cstdint>

namespace buzz::nostr {

// Which of two versions of a replaceable event, or two canvas revisions, is the current one — the
// relay's `ORDER BY created_at DESC, id ASC` (docs/buzz-protocol.md §Current canvas): the newer
// created_at wins; within the same second the lexicographically lower id wins. Ids are compared
// as given, so both must be lower-case hex (as on the wire). An event is never newer than itself.
// `Id` is std::string, std::string_view or QString.
template<class Id>
constexpr bool isNewer(std::int64_t createdAt, const Id &id, std::int64_t otherCreatedAt,
                       const Id &otherId)
{
    if (createdAt != otherCreatedAt)
        return createdAt > otherCreatedAt;
    return id < otherId;
}

// The same for anything with createdAt and id members (nostr::Event).
template<class E>
constexpr bool isNewer(const E &event, const E &other)
{
    return isNewer(event.createdAt, event.id, other.createdAt, other.id);
}

} // namespace buzz::nostr
