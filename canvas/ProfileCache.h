#pragma once

#include "canvas/SearchClient.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <qcoro/qcorotask.h>

namespace buzz::client {
class RelayConnection;
}

namespace buzz::canvas {

// Display names of authors (kind 0 profiles), fetched in batches with display reads
// (caller label "profiles") and cached for the session; refresh() (F5) asks again.
class ProfileCache : public QObject
{
    Q_OBJECT
public:
    explicit ProfileCache(client::RelayConnection *connection, QObject *parent = nullptr);

    // The best name known now: display_name ‖ name ‖ short npub. Never blocks; unknown pubkeys are
    // queued for the next batch (profilesUpdated tells when names arrived).
    QString displayName(const QString &pubkey);
    std::optional<ProfileHit> profile(const QString &pubkey) const;

    // Queue pubkeys for a batched fetch (coalesced over 50 ms, up to 500 per request).
    void request(const QStringList &pubkeys);
    // Fetch now and wait (CLI, tests). Pubkeys already cached are not refetched.
    QCoro::Task<client::Result<void>> fetch(QStringList pubkeys);

    // Asks again about every pubkey asked about or cached this session (F5), so a name someone
    // set or changed since shows without a restart. A display read: an answer older than the
    // profile cached (a lagging replica) changes nothing.
    void refresh();

    void insert(const ProfileHit &profile); // from a live kind-0 event or a search result

    // The signed-in identity (the connection's key), lower-case hex; empty without a key.
    QString selfPubkey() const;
    bool isSelf(const QString &pubkey) const;

    // Publishes our kind-0 profile with `displayName` (empty: removed), keeping every other field
    // of the profile the writer holds now (read strongly: it gates a replaceable write) and stamped
    // after it, so the relay keeps ours. Caller labels profile_own (strong read) and
    // profile_publish. The cache shows the new name at once on success.
    QCoro::Task<client::Result<ProfileHit>> publishDisplayName(QString displayName);

signals:
    void profilesUpdated(const QStringList &pubkeys);

private:
    void flushQueue();
    QCoro::Task<client::Result<void>> fetchBatches(QStringList pubkeys); // cached or not

    client::RelayConnection *m_connection;
    QHash<QString, ProfileHit> m_profiles;
    QSet<QString> m_queued;
    QSet<QString> m_requested; // asked once this session (a pubkey without a profile stays unnamed)
    QTimer m_batchTimer;
};

} // namespace buzz::canvas
