#include "net/client/EventVerifier.h"

#include "net/nostr/Kinds.h"

#include <algorithm>

namespace buzz::client {

namespace {

// The keyset cursors of a page (relay/store/sqlite/SqliteFilterSql): before_id continues a
// created_at DESC, id ASC walk strictly after (until, before_id); after_id continues an ASC walk
// after (since, after_id).
bool withinCursor(const nostr::Event &event, const nostr::Filter &filter)
{
    if (filter.beforeId && filter.until && event.createdAt == *filter.until
        && event.id <= *filter.beforeId)
        return false;
    if (filter.afterId && filter.since && event.createdAt == *filter.since
        && event.id <= *filter.afterId)
        return false;
    return true;
}

// The channel an event belongs to as the relay files it (relay/query/EventMatcher): its `h` tag,
// or for the relay-signed channel state that has none (39000-39002) the `d` tag naming the
// channel it describes. The relay delivers those to subscriptions scoped to that channel by `#h`.
const std::string *channelOf(const nostr::Event &event)
{
    if (const std::string *h = event.tagValue("h"))
        return h;
    const bool channelState = event.kind == nostr::kinds::kGroupMetadata
        || event.kind == nostr::kinds::kGroupAdmins || event.kind == nostr::kinds::kGroupMembers;
    return channelState ? event.tagValue("d") : nullptr;
}

QString describe(const nostr::Event &event)
{
    const std::string *channel = event.tagValue("h");
    QString text = QStringLiteral("kind %1").arg(event.kind);
    if (channel)
        text += QStringLiteral(", h %1").arg(QString::fromStdString(*channel).left(64));
    else
        text += QStringLiteral(", no h");
    return text;
}

} // namespace

bool EventVerifier::answers(const nostr::Event &event, const nostr::Filter &filter)
{
    const std::string *channel = channelOf(event);
    const auto asked = filter.tags.find('h');
    if (asked != filter.tags.end() && !event.tagValue("h")) {
        // Channel state: `#h` is answered by the channel its `d` names, the rest as usual.
        if (!channel
            || std::find(asked->second.begin(), asked->second.end(), *channel)
                == asked->second.end())
            return false;
        nostr::Filter rest = filter;
        rest.tags.erase('h');
        if (!rest.matches(event) || !withinCursor(event, rest))
            return false;
    } else if (!filter.matches(event) || !withinCursor(event, filter)) {
        return false;
    }
    if (const auto single = filter.singleChannel()) {
        if (!channel || *channel != *single)
            return false;
    }
    return true;
}

bool EventVerifier::isPresenceQuery(const nostr::Filter &filter)
{
    return filter.kinds && filter.kinds->size() == 1
        && filter.kinds->front() == nostr::kinds::kPresence && filter.authors
        && !filter.authors->empty();
}

bool EventVerifier::isRelayPresenceAnswer(const nostr::Event &event, const nostr::Filter &filter,
                                          const std::string &relayKey)
{
    if (relayKey.empty() || event.pubkey != relayKey || event.kind != nostr::kinds::kPresence
        || !isPresenceQuery(filter))
        return false;
    const std::string *subject = nullptr;
    for (const auto &tag : event.tags) {
        if (tag.size() >= 2 && tag[0] == "p") {
            if (subject)
                return false; // about one author, or about nobody in particular
            subject = &tag[1];
        }
    }
    return subject
        && std::find(filter.authors->begin(), filter.authors->end(), *subject)
        != filter.authors->end();
}

std::optional<QString> EventVerifier::problem(const nostr::Event &event,
                                              const std::vector<nostr::Filter> &asked,
                                              const std::string &relayKey)
{
    // The cheap check first: a foreign event costs no hashing.
    bool answered = asked.empty();
    for (const nostr::Filter &filter : asked)
        answered =
            answered || answers(event, filter) || isRelayPresenceAnswer(event, filter, relayKey);
    if (!answered)
        return QStringLiteral("not what was asked for (%1)").arg(describe(event));
    if (auto error = event.verificationError()) {
        if (error->rfind("invalid event id", 0) == 0)
            return QStringLiteral("invalid event id");
        return QString::fromStdString(*error);
    }
    return std::nullopt;
}

void DroppedEvents::add(const nostr::Event &event, const QString &reason)
{
    if (count++ == 0)
        firstReason = QStringLiteral("%1 (event %2)")
                          .arg(reason, QString::fromStdString(event.id.substr(0, 12)));
}

} // namespace buzz::client
