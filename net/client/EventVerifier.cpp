#include "net/client/EventVerifier.h"

namespace buzz::client {

namespace {

// The keyset cursors of a page (relay/query/FilterSql): before_id continues a created_at DESC,
// id ASC walk strictly after (until, before_id); after_id continues an ASC walk after (since,
// after_id).
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
    if (!filter.matches(event) || !withinCursor(event, filter))
        return false;
    if (const auto channel = filter.singleChannel()) {
        const std::string *h = event.tagValue("h");
        if (!h || *h != *channel)
            return false;
    }
    return true;
}

std::optional<QString> EventVerifier::problem(const nostr::Event &event,
                                              const std::vector<nostr::Filter> &asked)
{
    // The cheap check first: a foreign event costs no hashing.
    bool answered = asked.empty();
    for (const nostr::Filter &filter : asked)
        answered = answered || answers(event, filter);
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
