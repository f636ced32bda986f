#include "ui/OutcomePresenter.h"

#include "canvas/CanvasWriteRules.h"
#include "net/client/RelaySocket.h"

#include <QLocale>

namespace buzz::ui {

using Kind = canvas::SaveOutcome::Kind;
using Operation = canvas::CanvasSession::Operation;
using State = canvas::CanvasSession::State;

OutcomePresenter::Notice OutcomePresenter::relayError(const client::RelayError &error)
{
    Notice notice;
    notice.tone = NoticeBanner::Tone::Error;
    notice.text = error.shortText();
    notice.details = error.longText();
    if (const auto bytes = canvas::CanvasWriteRules::refusedSize(error)) {
        // Our own check and the relay's step 2c say the same: too large, nothing was sent.
        const QLocale locale;
        notice.text = tr("Not saved: this canvas is %1, over the relay's limit of "
                         "%2. Shorten it and save "
                         "again — your text stays in the editor.")
                          .arg(locale.formattedDataSize(*bytes, 1, QLocale::DataSizeIecFormat),
                               locale.formattedDataSize(canvas::CanvasWriteRules::kMaxContentBytes,
                                                        0, QLocale::DataSizeIecFormat));
        notice.details = error.detail;
    } else if (error.kind == client::RelayError::Kind::Auth) {
        notice.details = tr("Check that the relay URL in Settings is the address "
                            "the relay advertises, and that "
                            "Identity holds the key this relay knows.");
        notice.text = tr("The relay refused this identity: %1")
                          .arg(error.message.isEmpty() ? error.detail : error.message)
            + QLatin1Char(' ') + notice.details;
    } else if (error.kind == client::RelayError::Kind::NotFound) {
        notice.details = tr("Check the relay URL in Settings.");
    }
    return notice;
}

bool OutcomePresenter::isOutage(const client::RelayError &error,
                                const client::RelayConnection *connection)
{
    return error.isUnreachable() && connection
        && connection->socket()->state() != client::RelaySocket::State::Connected;
}

OutcomePresenter::Notice OutcomePresenter::notice(const canvas::CanvasSession::Settled &settled,
                                                  bool canRetry, bool canMerge,
                                                  bool waitingForRelay)
{
    const canvas::SaveOutcome &outcome = settled.outcome;
    const bool restore = settled.operation == Operation::Restore;
    if (waitingForRelay && !restore) {
        Notice waiting;
        waiting.tone = NoticeBanner::Tone::Warning;
        waiting.details = outcome.error ? outcome.error->longText() : QString();
        waiting.offerRetry = canRetry;
        waiting.text = outcome.kind == Kind::OutcomeUnknown
            ? tr("Your save is waiting for the relay: we couldn't confirm it arrived. As soon as "
                 "the relay answers it is checked, and sent again only if it is missing — it "
                 "can't land twice. Your text is kept.")
            : tr("Your save is waiting for the relay: it goes out by itself as soon as the relay "
                 "answers. Your text is kept.");
        return waiting;
    }
    const QString later = settled.laterChangesUnsaved
        ? QLatin1Char(' ') + tr("Your later changes are not saved yet.")
        : QString();
    Notice notice;
    switch (outcome.kind) {
    case Kind::SavedVerified:
        notice.text = (restore ? tr("Restored.") : tr("Saved.")) + later;
        notice.tone = later.isEmpty() ? NoticeBanner::Tone::Positive : NoticeBanner::Tone::Info;
        notice.autoHide = later.isEmpty();
        break;
    case Kind::SavedUnverified:
        notice.text = restore ? tr("Restored. We couldn't verify against the latest revision "
                                   "just "
                                   "now — check the canvas if a concurrent edit appears.")
                              : tr("Saved. We couldn't verify against the latest revision just "
                                   "now — check History if a concurrent edit appears.")
                + later;
        notice.details = outcome.error ? outcome.error->longText() : QString();
        break;
    case Kind::AlreadyCurrent:
        notice.text = restore
            ? tr("This revision is already the current canvas.")
            : tr("Nothing to save: this text is already the current canvas.") + later;
        break;
    case Kind::Conflict:
        notice.text = tr("This canvas changed since you loaded it — reload to see the latest, "
                         "then reapply your edit.");
        notice.tone = NoticeBanner::Tone::Warning;
        notice.details = outcome.error ? outcome.error->detail : QString();
        notice.offerMerge = canMerge;
        break;
    case Kind::Superseded:
        notice.text = restore ? tr("A concurrent edit is now current. Your restore was preserved "
                                   "in "
                                   "History.")
                              : tr("A concurrent edit is now current. Your save was preserved in "
                                   "History — merge it, or restore it from History.")
                + later;
        notice.tone = NoticeBanner::Tone::Warning;
        notice.offerMerge = canMerge;
        break;
    case Kind::OutcomeUnknown:
        notice.text = restore ? tr("We couldn't confirm whether the restore reached the relay. "
                                   "Retry sends the same restore again — it can't apply twice.")
                              : tr("We couldn't confirm whether your save reached the relay. "
                                   "Your "
                                   "text is kept — retry to send the same save again.");
        notice.tone = NoticeBanner::Tone::Warning;
        notice.details = outcome.error ? outcome.error->longText() : QString();
        notice.offerRetry = canRetry;
        break;
    case Kind::Error:
        if (outcome.error) {
            notice = relayError(*outcome.error);
        } else {
            notice.text = restore ? tr("Restore failed.") : tr("Save failed.");
            notice.tone = NoticeBanner::Tone::Error;
        }
        notice.offerRetry = canRetry;
        break;
    }
    return notice;
}

QString OutcomePresenter::saveState(const canvas::CanvasSession &session,
                                    const QString &draftSavedAt)
{
    if (session.isWaitingForRelay())
        return tr("Waiting for the relay");
    switch (session.state()) {
    case State::Saving:
        return tr("Saving…");
    case State::OutcomeUnknown:
        return session.isEditing() ? tr("Save outcome unknown") : QString();
    case State::Merging:
        return tr("Not saved: conflict");
    case State::Restoring:
        return QString();
    case State::Editing:
        if (session.isEditedSinceBase())
            return draftSavedAt.isEmpty() ? tr("Unsaved changes")
                                          : tr("Draft autosaved %1").arg(draftSavedAt);
        break;
    case State::Viewing:
        break;
    }
    const auto &settled = session.lastSettled();
    if (!settled || settled->operation != Operation::Save)
        return QString();
    switch (settled->outcome.kind) {
    case Kind::SavedVerified:
        return tr("Saved");
    case Kind::SavedUnverified:
        return tr("Saved (unverified)");
    case Kind::Superseded:
        return tr("Saved, but superseded");
    case Kind::Error:
        return tr("Not saved");
    case Kind::AlreadyCurrent:
    case Kind::Conflict:
    case Kind::OutcomeUnknown:
        return QString();
    }
    return QString();
}

} // namespace buzz::ui
