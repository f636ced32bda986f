#include "net/client/RelaySubscription.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace buzz::client {

namespace {

constexpr qint64 kResubscribeOverlapSecs = 5;
constexpr qsizetype kRecentIdsBound = 1024; // the overlap window is only seconds wide

} // namespace

QByteArray RelaySubscription::reqFrame(const QString &id) const
{
    nlohmann::json message = nlohmann::json::array({"REQ", id.toStdString()});
    for (nostr::Filter filter : filters) {
        if (m_lastSeenCreatedAt > 0) {
            const qint64 since = m_lastSeenCreatedAt - kResubscribeOverlapSecs;
            if (!filter.since || *filter.since < since)
                filter.since = since;
        }
        message.push_back(filter.toJsonValue());
    }
    return QByteArray::fromStdString(message.dump());
}

bool RelaySubscription::acceptEvent(const nostr::Event &event)
{
    const QString eventId = QString::fromStdString(event.id);
    if (m_recentIds.contains(eventId))
        return false;
    if (m_recentIds.size() >= kRecentIdsBound)
        m_recentIds.clear();
    m_recentIds.insert(eventId);
    m_lastSeenCreatedAt = std::max<qint64>(m_lastSeenCreatedAt, event.createdAt);
    return true;
}

bool RelaySubscription::isStrong() const
{
    return std::any_of(filters.begin(), filters.end(),
                       [](const nostr::Filter &filter) { return filter.isStrong(); });
}

bool RelaySubscription::isPermanentRefusal(const QString &reason)
{
    for (const char *prefix : {"restricted:", "invalid:", "blocked:", "unsupported:"}) {
        if (reason.startsWith(QLatin1String(prefix)))
            return true;
    }
    return false;
}

QString RelaySubscription::closedStatus(const QString &reason)
{
    if (reason.startsWith(QLatin1String("restricted:"))
        || reason.startsWith(QLatin1String("auth-required:")))
        return QStringLiteral("auth");
    if (isPermanentRefusal(reason))
        return QStringLiteral("bad_request");
    return QStringLiteral("retryable");
}

QString RelaySubscription::eoseRoute(const nlohmann::json &eose)
{
    if (eose.size() < 3 || !eose[2].is_object())
        return {};
    const auto route = eose[2].find("read_route");
    return route != eose[2].end() && route->is_string()
        ? QString::fromStdString(route->get<std::string>())
        : QString();
}

} // namespace buzz::client
