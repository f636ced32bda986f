#include "canvas/SearchClient.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/EventOrder.h"
#include "net/nostr/Kinds.h"
#include "net/nostr/Nip19.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace buzz::canvas {

using client::fail;
using client::RelayError;
using client::Result;

QString ProfileHit::label() const
{
    if (!displayName.isEmpty())
        return displayName;
    if (!name.isEmpty())
        return name;
    return QString::fromStdString(nostr::nip19::shortNpub(pubkey.toStdString()));
}

std::optional<ProfileHit> SearchClient::profileFromEvent(const nostr::Event &event)
{
    if (event.kind != nostr::kinds::kProfile)
        return std::nullopt;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(event.content));
    ProfileHit hit;
    hit.pubkey = QString::fromStdString(event.pubkey);
    hit.createdAt = event.createdAt;
    if (document.isObject()) {
        const QJsonObject object = document.object();
        hit.displayName = object.value(QLatin1String("display_name")).toString().trimmed();
        hit.name = object.value(QLatin1String("name")).toString().trimmed();
        hit.nip05 = object.value(QLatin1String("nip05")).toString().trimmed();
        hit.picture = object.value(QLatin1String("picture")).toString();
    }
    return hit;
}

SearchClient::SearchClient(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{ }

QCoro::Task<Result<std::vector<CanvasRevision>>>
SearchClient::searchCanvases(QString query, std::optional<QString> channel, int limit)
{
    nostr::Filter filter;
    filter.kinds = std::vector<int> {kCanvasKind};
    filter.search = query.toStdString();
    filter.limit = std::clamp(limit, 1, 500);
    if (channel)
        filter.tags['h'] = {channel->toLower().toStdString()};
    auto response = co_await m_connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("search")));
    if (!response)
        co_return fail(response.error());
    std::vector<CanvasRevision> revisions;
    for (const nostr::Event &event : response->events) {
        if (auto revision = CanvasRevision::fromEvent(event))
            revisions.push_back(std::move(*revision));
    }
    co_return revisions;
}

namespace {

QStringList terms(const QString &query)
{
    QStringList words;
    for (const QString &word : query.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        QString term = word;
        term.remove(QLatin1Char('"'));
        if (!term.isEmpty())
            words.append(term);
    }
    return words;
}

} // namespace

bool SearchClient::containsAllTerms(const QString &content, const QString &query)
{
    const QStringList words = terms(query);
    if (words.isEmpty())
        return false;
    for (const QString &word : words) {
        if (!content.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

SearchSnippet SearchClient::snippet(const QString &content, const QString &query)
{
    constexpr qsizetype kBefore = 40;
    constexpr qsizetype kLength = 120;
    qsizetype at = -1;
    qsizetype length = 0;
    for (const QString &word : terms(query)) {
        const qsizetype found = content.indexOf(word, 0, Qt::CaseInsensitive);
        if (found >= 0 && (at < 0 || found < at)) {
            at = found;
            length = word.size();
        }
    }
    qsizetype start = at < 0 ? 0 : qMax<qsizetype>(0, at - kBefore);
    // Start at a word boundary, not mid-word.
    if (start > 0) {
        const qsizetype space = content.indexOf(QLatin1Char(' '), start);
        if (space >= 0 && space < at)
            start = space + 1;
    }
    SearchSnippet result;
    QString text = content.mid(start, kLength);
    for (QChar &c : text) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
    }
    const bool cutBefore = start > 0;
    const bool cutAfter = start + kLength < content.size();
    result.text = (cutBefore ? QStringLiteral("…") : QString()) + text
        + (cutAfter ? QStringLiteral("…") : QString());
    if (at >= 0) {
        result.matchStart = at - start + (cutBefore ? 1 : 0);
        result.matchLength = length;
    }
    return result;
}

QCoro::Task<Result<std::vector<CanvasSearchHit>>>
SearchClient::searchCanvasGroups(QString query, int revisions, int maxCanvases)
{
    auto found = co_await searchCanvases(query, std::nullopt, revisions);
    if (!found)
        co_return fail(found.error());
    std::vector<CanvasSearchHit> hits;
    QHash<QString, std::size_t> byChannel;
    for (CanvasRevision &revision : *found) {
        const QString channel = revision.channel.toLower();
        auto it = byChannel.constFind(channel);
        if (it == byChannel.constEnd()) {
            byChannel.insert(channel, hits.size());
            CanvasSearchHit hit;
            hit.channel = channel;
            hit.newestMatch = std::move(revision);
            hit.matchingRevisions = 1;
            hits.push_back(std::move(hit));
            continue;
        }
        CanvasSearchHit &hit = hits[*it];
        ++hit.matchingRevisions;
        if (revision.isNewerThan(hit.newestMatch))
            hit.newestMatch = std::move(revision);
    }
    std::sort(hits.begin(), hits.end(), [](const CanvasSearchHit &a, const CanvasSearchHit &b) {
        return a.newestMatch.isNewerThan(b.newestMatch);
    });
    if (static_cast<int>(hits.size()) > maxCanvases)
        hits.resize(std::size_t(std::max(maxCanvases, 0)));

    constexpr std::size_t kFiltersPerRequest = 10; // the relay's cap
    for (std::size_t first = 0; first < hits.size(); first += kFiltersPerRequest) {
        std::vector<nostr::Filter> heads;
        for (std::size_t i = first; i < std::min(hits.size(), first + kFiltersPerRequest); ++i) {
            nostr::Filter head;
            head.kinds = std::vector<int> {kCanvasKind};
            head.tags['h'] = {hits[i].channel.toStdString()};
            head.limit = 1;
            heads.push_back(std::move(head));
        }
        auto response = co_await m_connection->bridge()->query(
            heads, client::options(QStringLiteral("search_heads")));
        if (!response)
            continue; // the hits stay, described by their newest match
        for (const nostr::Event &event : response->events) {
            auto revision = CanvasRevision::fromEvent(event);
            if (!revision)
                continue;
            for (std::size_t i = first; i < std::min(hits.size(), first + kFiltersPerRequest);
                 ++i) {
                if (hits[i].channel == revision->channel.toLower()
                    && (!hits[i].head || revision->isNewerThan(*hits[i].head)))
                    hits[i].head = *revision;
            }
        }
    }
    for (CanvasSearchHit &hit : hits) {
        // The relay's index may lag the head, or the head may be newer than every match.
        if (hit.head && hit.newestMatch.isNewerThan(*hit.head))
            hit.head = hit.newestMatch;
        hit.inCurrent = hit.head && containsAllTerms(hit.head->content, query);
        hit.snippet = snippet(hit.shown().content, query);
    }
    co_return hits;
}

namespace {

// 0 exact, 1 prefix, 2 substring, 3 no match.
int matchQuality(const QString &field, const QString &needle)
{
    if (field.isEmpty())
        return 3;
    if (field.compare(needle, Qt::CaseInsensitive) == 0)
        return 0;
    if (field.startsWith(needle, Qt::CaseInsensitive))
        return 1;
    if (field.contains(needle, Qt::CaseInsensitive))
        return 2;
    return 3;
}

int profileRank(const ProfileHit &hit, const QString &needle)
{
    const QString fields[] = {hit.displayName, hit.name, hit.nip05};
    int best = 3 * 3 + 3;
    for (int field = 0; field < 3; ++field)
        best = std::min(best, matchQuality(fields[field], needle) * 3 + field);
    return best;
}

} // namespace

QCoro::Task<Result<std::vector<ProfileHit>>> SearchClient::searchProfiles(QString query, int limit)
{
    const QString needle = query.trimmed();
    nostr::Filter filter;
    filter.kinds = std::vector<int> {nostr::kinds::kProfile};
    if (!needle.isEmpty())
        filter.search = needle.toStdString();
    filter.limit = std::clamp(std::max(limit, 50), 1, 500);
    auto response = co_await m_connection->bridge()->query(
        client::filters(filter), client::options(QStringLiteral("search_profiles")));
    if (!response)
        co_return fail(response.error());
    // One hit per pubkey: the current profile (the events outlive this loop's pointers).
    QHash<QString, std::pair<ProfileHit, const nostr::Event *>> newest;
    for (const nostr::Event &event : response->events) {
        auto hit = profileFromEvent(event);
        if (!hit)
            continue;
        auto it = newest.find(hit->pubkey);
        if (it == newest.end() || nostr::isNewer(event, *it->second))
            newest.insert(hit->pubkey, {*hit, &event});
    }
    std::vector<ProfileHit> hits;
    for (const auto &entry : newest)
        hits.push_back(entry.first);
    std::stable_sort(hits.begin(), hits.end(), [&](const ProfileHit &a, const ProfileHit &b) {
        const int ra = profileRank(a, needle), rb = profileRank(b, needle);
        return ra != rb ? ra < rb : a.label().compare(b.label(), Qt::CaseInsensitive) < 0;
    });
    if (static_cast<int>(hits.size()) > limit)
        hits.resize(static_cast<std::size_t>(std::max(limit, 0)));
    co_return hits;
}

} // namespace buzz::canvas
