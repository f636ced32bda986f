#include "canvas/ProfileCache.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/nostr/Kinds.h"
#include "net/nostr/Nip19.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace buzz::canvas {

using client::fail;
using client::Result;

namespace {
constexpr int kBatchSize = 500;
}

ProfileCache::ProfileCache(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    m_batchTimer.setSingleShot(true);
    m_batchTimer.setInterval(50);
    connect(&m_batchTimer, &QTimer::timeout, this, &ProfileCache::flushQueue);
}

QString ProfileCache::displayName(const QString &pubkey)
{
    const QString key = pubkey.toLower();
    auto it = m_profiles.constFind(key);
    if (it != m_profiles.constEnd())
        return it->label();
    request({key});
    return QString::fromStdString(nostr::nip19::shortNpub(key.toStdString()));
}

std::optional<ProfileHit> ProfileCache::profile(const QString &pubkey) const
{
    auto it = m_profiles.constFind(pubkey.toLower());
    if (it == m_profiles.constEnd())
        return std::nullopt;
    return *it;
}

void ProfileCache::request(const QStringList &pubkeys)
{
    for (const QString &pubkey : pubkeys) {
        const QString key = pubkey.toLower();
        if (!m_profiles.contains(key) && !m_requested.contains(key))
            m_queued.insert(key);
    }
    if (!m_queued.isEmpty() && !m_batchTimer.isActive())
        m_batchTimer.start();
}

void ProfileCache::insert(const ProfileHit &profile)
{
    m_profiles.insert(profile.pubkey.toLower(), profile);
    emit profilesUpdated({profile.pubkey.toLower()});
}

void ProfileCache::flushQueue()
{
    const QStringList batch(m_queued.begin(), m_queued.end());
    m_queued.clear();
    if (!batch.isEmpty())
        fetch(batch); // fire and forget: profilesUpdated reports the result
}

QCoro::Task<Result<void>> ProfileCache::fetch(QStringList pubkeys)
{
    QStringList wanted;
    for (const QString &pubkey : pubkeys) {
        const QString key = pubkey.toLower();
        if (!m_profiles.contains(key) && !wanted.contains(key))
            wanted.append(key);
    }
    co_return co_await fetchBatches(std::move(wanted));
}

void ProfileCache::refresh()
{
    QSet<QString> known = m_requested;
    for (auto it = m_profiles.cbegin(); it != m_profiles.cend(); ++it)
        known.insert(it.key());
    known.subtract(m_queued); // asked for in the next batch anyway
    if (!known.isEmpty())
        fetchBatches(QStringList(known.begin(), known.end())); // profilesUpdated reports changes
}

QCoro::Task<Result<void>> ProfileCache::fetchBatches(QStringList wanted)
{
    for (qsizetype start = 0; start < wanted.size(); start += kBatchSize) {
        nostr::Filter filter;
        filter.kinds = std::vector<int> {nostr::kinds::kProfile};
        std::vector<std::string> authors;
        for (const QString &key : wanted.mid(start, kBatchSize)) {
            authors.push_back(key.toStdString());
            m_requested.insert(key);
        }
        filter.limit = static_cast<int>(authors.size());
        filter.authors = std::move(authors);
        auto response = co_await m_connection->bridge()->query(
            client::filters(filter), client::options(QStringLiteral("profiles")));
        if (!response) {
            for (const QString &key : wanted.mid(start, kBatchSize))
                m_requested.remove(key); // allow a later retry
            co_return fail(response.error());
        }
        QStringList updated;
        for (const nostr::Event &event : response->events) {
            auto hit = SearchClient::profileFromEvent(event);
            if (!hit)
                continue;
            const QString key = hit->pubkey.toLower();
            const auto cached = m_profiles.constFind(key);
            if (cached != m_profiles.constEnd() && cached->createdAt >= hit->createdAt)
                continue; // the profile shown, or an older one
            m_profiles.insert(key, *hit);
            updated.append(key);
        }
        if (!updated.isEmpty())
            emit profilesUpdated(updated);
    }
    co_return Result<void>();
}

QString ProfileCache::selfPubkey() const
{
    return m_connection->publicKeyHex().toLower();
}

bool ProfileCache::isSelf(const QString &pubkey) const
{
    const QString self = selfPubkey();
    return !self.isEmpty() && pubkey.compare(self, Qt::CaseInsensitive) == 0;
}

QCoro::Task<Result<ProfileHit>> ProfileCache::publishDisplayName(QString displayName)
{
    const auto key = m_connection->secretKey();
    if (!key)
        co_return fail(client::RelayError::make(client::RelayError::Kind::Auth,
                                                QStringLiteral("no identity configured")));
    const QString self = selfPubkey();
    nostr::Filter own;
    own.kinds = std::vector<int> {nostr::kinds::kProfile};
    own.authors = std::vector<std::string> {self.toStdString()};
    own.limit = 1;
    own.consistency = nostr::Filter::Consistency::Strong;
    auto current = co_await m_connection->bridge()->query(
        client::filters(own), client::options(QStringLiteral("profile_own")));
    if (!current)
        co_return fail(current.error());
    QJsonObject content;
    qint64 previousAt = 0;
    for (const nostr::Event &event : current->events) {
        if (event.kind != nostr::kinds::kProfile || event.createdAt < previousAt)
            continue;
        previousAt = event.createdAt;
        content = QJsonDocument::fromJson(QByteArray::fromStdString(event.content)).object();
    }
    displayName = displayName.trimmed();
    if (displayName.isEmpty())
        content.remove(QStringLiteral("display_name"));
    else
        content.insert(QStringLiteral("display_name"), displayName);
    // Replaceable: an equal or older created_at would be answered "duplicate:" and not stored.
    const qint64 createdAt = std::max(QDateTime::currentSecsSinceEpoch(), previousAt + 1);
    const nostr::Event event =
        key->signedEvent(nostr::kinds::kProfile, createdAt, {},
                         QJsonDocument(content).toJson(QJsonDocument::Compact).toStdString());
    auto response = co_await m_connection->bridge()->publish(
        event, client::options(QStringLiteral("profile_publish")));
    if (!response)
        co_return fail(response.error());
    if (!response->accepted || response->message.startsWith(QLatin1String("duplicate:")))
        co_return fail(client::RelayError::make(
            client::RelayError::Kind::BadRequest, response->message,
            QStringLiteral("relay rejected event: ") + response->message, 200));
    auto hit = SearchClient::profileFromEvent(event);
    insert(*hit);
    co_return *hit;
}

} // namespace buzz::canvas
