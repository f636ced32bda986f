#pragma once

#include "canvas/SearchService.h"

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
// (caller label "profiles") and cached for the session.
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

    void insert(const ProfileHit &profile); // from a live kind-0 event or a search result

signals:
    void profilesUpdated(const QStringList &pubkeys);

private:
    void flushQueue();

    client::RelayConnection *m_connection;
    QHash<QString, ProfileHit> m_profiles;
    QSet<QString> m_queued;
    QSet<QString> m_requested; // asked once this session (a pubkey without a profile stays unnamed)
    QTimer m_batchTimer;
};

} // namespace buzz::canvas
