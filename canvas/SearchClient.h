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
    qint64 createdAt = 0; // the kind-0 event's: a refresh never goes back to an older profile

    // display_name ‖ name ‖ short npub
    QString label() const;
};

// A stretch of text around the first match of a query, on one line, with the match located so a
// view can highlight it.
struct SearchSnippet
{
    QString text; // "…the design review moved to Tuesday…"
    qsizetype matchStart = -1; // in `text`; -1 when no term occurs
    qsizetype matchLength = 0;
};

// One canvas in the search results: the channel, not each of its old revisions.
struct CanvasSearchHit
{
    QString channel;
    CanvasRevision newestMatch; // the newest revision the relay found for the query
    std::optional<CanvasRevision> head; // the current canvas, when the head read answered
    int matchingRevisions = 0; // how many of the found revisions belong to this canvas
    // The current canvas still contains the query: author, time and snippet are the head's.
    // Otherwise they are the newest match's, an older revision ("no longer in the canvas").
    bool inCurrent = false;
    SearchSnippet snippet;

    const CanvasRevision &shown() const { return inCurrent && head ? *head : newestMatch; }
};

// The client side of NIP-50 search (relay::search::SearchService answers it), through POST /query
// (display reads). Caller labels: search, search_heads, search_profiles.
class SearchClient : public QObject
{
    Q_OBJECT
public:
    explicit SearchClient(client::RelayConnection *connection, QObject *parent = nullptr);

    // Canvas revisions whose text matches (relevance order as the relay returns it), optionally
    // restricted to one channel.
    QCoro::Task<client::Result<std::vector<CanvasRevision>>>
    searchCanvases(QString query, std::optional<QString> channel = {}, int limit = 20);

    // Canvases whose text matches, one hit per channel, newest first: up to `revisions` matching
    // revisions are grouped by channel, then the heads of the first `maxCanvases` channels are read
    // (display reads, 10 filters a request) to tell a match in the current canvas from one only in
    // an older revision. A failed head read leaves `head` empty, never drops the hit.
    QCoro::Task<client::Result<std::vector<CanvasSearchHit>>>
    searchCanvasGroups(QString query, int revisions = 200, int maxCanvases = 30);

    // The first occurrence of any of the query's words in `content`, with up to ~40 characters of
    // context before it, ~120 in all, newlines folded into spaces.
    static SearchSnippet snippet(const QString &content, const QString &query);
    // Whether `content` contains every word of `query` (case-insensitive).
    static bool containsAllTerms(const QString &content, const QString &query);

    // People by name: {"kinds":[0],"search":q}, re-ranked like the desktop (exact > prefix >
    // substring; display name > name > nip05), one hit per pubkey.
    QCoro::Task<client::Result<std::vector<ProfileHit>>> searchProfiles(QString query,
                                                                        int limit = 50);

    static std::optional<ProfileHit> profileFromEvent(const nostr::Event &event); // kind 0

private:
    client::RelayConnection *m_connection;
};

} // namespace buzz::canvas
