#pragma once

#include "canvas/CanvasRevision.h"
#include "net/client/RelayError.h"

#include <QObject>
#include <QString>

#include <qcoro/qcorotask.h>

#include <optional>
#include <vector>

namespace buzz::client {
class RelayConnection;
}

namespace buzz::canvas {

struct ProfileHit
{
    QString pubkey;
    QString displayName;
    QString name;
    QString nip05;
    QString picture;

    // display_name ‖ name ‖ short npub
    QString label() const;
};

// NIP-50 search through POST /query (display reads). Caller labels: search, search_profiles.
class SearchService : public QObject
{
    Q_OBJECT
public:
    explicit SearchService(client::RelayConnection *connection, QObject *parent = nullptr);

    // Canvas revisions whose text matches (relevance order as the relay returns it), optionally
    // restricted to one channel.
    QCoro::Task<client::Result<std::vector<CanvasRevision>>>
    searchCanvases(QString query, std::optional<QString> channel = {}, int limit = 20);

    // People by name: {"kinds":[0],"search":q}, re-ranked like the desktop (exact > prefix >
    // substring; display name > name > nip05), one hit per pubkey.
    QCoro::Task<client::Result<std::vector<ProfileHit>>> searchProfiles(QString query,
                                                                        int limit = 50);

    static std::optional<ProfileHit> profileFromEvent(const nostr::Event &event); // kind 0

private:
    client::RelayConnection *m_connection;
};

} // namespace buzz::canvas
