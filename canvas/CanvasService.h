#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/ReadIntent.h"
#include "canvas/SaveOutcome.h"
#include "net/client/RelayError.h"
#include "net/client/RelaySocket.h"

#include <QObject>
#include <QString>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <functional>
#include <optional>

namespace buzz::client {
class RelayConnection;
}

namespace buzz::canvas {

struct SaveOptions
{
    // CLI `canvas set --unconditional`: no expected-revision tag (legacy append), still stamped
    // ahead of the head and still verified. Never used by the desktop.
    bool unconditional = false;
    // CLI `canvas set --expected-revision ID|none`: the tag carries exactly this (a 64-hex id or
    // "none") and the event goes to the relay whatever head the precondition read found, so a
    // script exercises the relay's compare-and-swap, not this client's. Still stamped ahead of
    // the head and verified; "already current" only when the value names the head.
    std::optional<QString> expectedRevision;
    // A merge says so on the event (RevisionLabel, docs/buzz-protocol.md §Revision labels).
    std::optional<RevisionLabel> label;
};

// The canvas data layer (docs/architecture.md §The save flow): precondition → publish → verify.
// Reads that gate a write are Strong ("consistency":"strong", writer); display reads carry no
// consistency and may come from a replica. Nothing here ever overwrites someone else's text
// silently: saves are compare-and-swap on the head id and verified after the write.
//
// Caller labels in the RequestLog: canvas_head_display, canvas_head_strong, canvas_precondition,
// canvas_publish, canvas_publish_retry, canvas_ancestry, canvas_existence, canvas_revision,
// canvas_restore_target, canvas_draft_base, canvas_watch_resync (for CanvasWatch),
// canvas_head_recheck, history_page. The live subscription (canvas_watch) is CanvasWatch's. The
// write-gating ones (strong, served by the writer): canvas_precondition, canvas_ancestry,
// canvas_existence, canvas_restore_target, canvas_draft_base.
class CanvasService : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultHistoryPageSize = 100;
    static constexpr int kMaxHistoryPageSize = 1000;
    static constexpr int kAncestryWalkMax = 256;
    static constexpr qint64 kMaxHeadFutureSkewSecs = 60;

    explicit CanvasService(client::RelayConnection *connection, QObject *parent = nullptr);
    ~CanvasService() override;

    // The current canvas (newest non-deleted 40100 of the channel), nullopt when there is none.
    QCoro::Task<client::Result<std::optional<CanvasRevision>>>
    head(QString channel, ReadIntent intent = ReadIntent::Display);

    // One page of history, newest first. Pass the previous page's nextCursor for older revisions.
    // pageSize 1..1000 (the relay clamps at 1000, a larger size would fake a short page). Each
    // revision is on one page once: a row repeated on a page is listed once, the next cursor is
    // the page's oldest row, and a full page with nothing past the cursor ends the walk
    // (HistoryPage::stalled) instead of repeating it.
    QCoro::Task<client::Result<HistoryPage>> history(QString channel,
                                                     std::optional<HistoryCursor> cursor = {},
                                                     int pageSize = kDefaultHistoryPageSize);

    // Any revision of the channel by id (display read); nullopt when the relay has no such
    // revision.
    QCoro::Task<client::Result<std::optional<CanvasRevision>>> revision(QString channel,
                                                                        QString eventId);
    // The revision a restored draft was started from. Strong: it becomes the base of a
    // compare-and-swap, and a replica that lacks it must not turn it into "no canvas".
    QCoro::Task<client::Result<std::optional<CanvasRevision>>> draftBase(QString channel,
                                                                         QString eventId);

    // Save `content` as the new canvas. `base` is the head captured when editing STARTED (not the
    // live head); nullopt = "there was no canvas" (sends expected-revision "none").
    //  1. strong head read; head's text = content → AlreadyCurrent (nothing to write);
    //     head ≠ base → Conflict (nothing signed)
    //  2. sign with created_at = max(now, head.created_at + 1) (Error if head is > 60 s in the
    //  future)
    //  3. POST /events; 409/"conflict:" → Conflict with theirs read strongly (after checking the
    //     write is not ours from an earlier lost attempt); lost response → reconcile (strong ids
    //     read + ancestry), re-sending the SAME signed event once if it did not land
    //  4. strong ancestry walk (256) → SavedVerified / Superseded; read failure → SavedUnverified
    QCoro::Task<SaveOutcome> save(QString channel, std::optional<CanvasRevision> base,
                                  QString content, SaveOptions options = SaveOptions {});

    // Restore revision `revisionId` as a new head (byte copy of its content). `frozenHeadId` is the
    // head id captured when the confirm dialog opened (nullopt = no canvas). Target already head,
    // or the head already has its exact text → AlreadyCurrent (no write); otherwise the same CAS,
    // verification and reconciliation as save(). The event is labelled "restored-from" the target.
    QCoro::Task<SaveOutcome> restore(QString channel, QString revisionId,
                                     std::optional<QString> frozenHeadId);

    // Re-send an OutcomeUnknown write (exactly the same signed event) and reconcile.
    QCoro::Task<SaveOutcome> resubmit(SaveOutcome unknown);

    // Whether the relay's connection is up (the WebSocket authenticated and answering): a write
    // that failed for want of a connection is worth trying again once it is. relayConnected()
    // fires each time it comes up.
    bool isRelayConnected() const;

    // A canvas shown from a display read (it may come from a replica up to the relay's staleness
    // budget behind) is read again from the writer once this long has passed with nothing
    // stronger learned meanwhile (canvas::HeadRecheck). The relay does not tell its budget
    // (BUZZ_REPLICA_READ_MAX_AGE_MS on the real relay, --read-max-age-ms on the mock, at most
    // 30 s); 5 s is at least the budgets the app is run with.
    static constexpr std::chrono::milliseconds kDefaultStaleRecheckAfter {5000};
    std::chrono::milliseconds staleRecheckAfter() const { return m_staleRecheckAfter; }
    void setStaleRecheckAfter(std::chrono::milliseconds after) { m_staleRecheckAfter = after; }
    // The head read from the writer for that re-check (caller canvas_head_recheck).
    QCoro::Task<client::Result<std::optional<CanvasRevision>>> recheckHead(QString channel);

    // The head read from the writer after a live subscription's gap (CanvasWatch, caller
    // canvas_watch_resync).
    QCoro::Task<client::Result<std::optional<CanvasRevision>>> resyncHead(QString channel);

    // Test hook: the wall clock used for created_at (unix seconds). Default: system clock.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    qint64 now() const { return m_clock(); }

signals:
    void relayConnected();

private:
    struct Written; // internal: a signed candidate and what it was based on
    QCoro::Task<SaveOutcome> publishAndVerify(Written written);
    QCoro::Task<SaveOutcome> reconcileAfterConflict(Written written, client::RelayError relayError);
    QCoro::Task<SaveOutcome> reconcileUnknown(Written written, client::RelayError cause,
                                              bool mayResend);
    QCoro::Task<SaveOutcome> verifyAncestry(Written written);
    QCoro::Task<client::Result<std::vector<CanvasRevision>>> strongAncestry(QString channel);
    QCoro::Task<client::Result<std::optional<CanvasRevision>>>
    strongById(QString channel, QString eventId, QString caller);
    QCoro::Task<client::Result<std::optional<CanvasRevision>>>
    readHead(QString channel, bool strong, QString caller);
    client::Result<nostr::Event> signCandidate(const QString &channel, const QString &content,
                                               const std::optional<CanvasRevision> &head,
                                               std::optional<QString> expectedRevision,
                                               const std::optional<RevisionLabel> &label = {});

    client::RelayConnection *m_connection;
    std::function<qint64()> m_clock;
    std::chrono::milliseconds m_staleRecheckAfter = kDefaultStaleRecheckAfter;
};

} // namespace buzz::canvas
