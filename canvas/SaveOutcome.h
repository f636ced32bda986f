#pragma once

#include "canvas/CanvasRevision.h"
#include "net/client/RelayError.h"
#include "net/nostr/Event.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace buzz::canvas {

// How a save or restore ended. Every kind except Error/OutcomeUnknown means the relay's canvas
// is in a known state; only SavedVerified clears a draft.
struct SaveOutcome
{
    enum class Kind {
        SavedVerified, // ours is the head or an ancestor of it (a later write built on ours)
        SavedUnverified, // relay accepted ours but the verification read failed: a notice, not an
                         // error
        Conflict, // not written (or rejected by the relay's CAS): base/mine/theirs are set
        Superseded, // written, preserved in history, but a write not built on ours is now head
        AlreadyCurrent, // restore target already is the head: nothing written
        OutcomeUnknown, // could not tell whether ours landed (network gone); `pending` can be
                        // re-sent with CanvasService::resubmit — same signed bytes, no double
                        // publish
        Error, // nothing written: `error` says why (auth, invalid, unreachable before sending)
    };

    Kind kind = Kind::Error;

    // SavedVerified / SavedUnverified / Superseded: our published revision.
    // AlreadyCurrent: the current head (= the restore target).
    std::optional<CanvasRevision> saved;

    // Conflict: the revision the edit started from (nullopt = there was no canvas), our text, and
    // the head that is current now (nullopt when the channel has no canvas any more).
    std::optional<CanvasRevision> base;
    QString mine;
    std::optional<CanvasRevision> theirs;

    // Superseded: the head now. (Conflict uses `theirs`.)
    std::optional<CanvasRevision> head;

    // Error / OutcomeUnknown: the failure. SavedUnverified: the failed verification read.
    // Conflict detected by the relay: the relay's "conflict: …" message.
    std::optional<client::RelayError> error;

    // OutcomeUnknown: the signed event whose fate is unknown.
    std::optional<nostr::Event> pending;

    bool isSaved() const { return kind == Kind::SavedVerified || kind == Kind::SavedUnverified; }
    // True when our content is durably in the channel's history (saved, superseded or already
    // current).
    bool isDurable() const
    {
        return isSaved() || kind == Kind::Superseded || kind == Kind::AlreadyCurrent;
    }

    // User-facing wording lives with each front end (ui/OutcomePresenter, app/cli), not here.
    QString kindName() const; // "saved", "saved_unverified", "conflict", … (CLI / logs)

    static SaveOutcome failure(client::RelayError error);
};

} // namespace buzz::canvas

Q_DECLARE_METATYPE(buzz::canvas::SaveOutcome)
