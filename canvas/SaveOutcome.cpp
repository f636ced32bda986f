#include "canvas/SaveOutcome.h"

namespace buzz::canvas {

SaveOutcome SaveOutcome::failure(client::RelayError error)
{
    SaveOutcome outcome;
    outcome.kind = Kind::Error;
    outcome.error = std::move(error);
    return outcome;
}

QString SaveOutcome::userMessage(bool restore) const
{
    switch (kind) {
    case Kind::SavedVerified:
        return {};
    case Kind::SavedUnverified:
        return restore ? QStringLiteral(
                   "Restored. We couldn't verify against the latest revision just now — check "
                   "the canvas if a concurrent edit appears.")
                       : QStringLiteral(
                           "Saved. We couldn't verify against the latest revision just now — check "
                           "History if a concurrent edit appears.");
    case Kind::Conflict:
        return QStringLiteral("This canvas changed since you loaded it — reload to see the latest, "
                              "then reapply your edit.");
    case Kind::Superseded:
        return QStringLiteral(
            "A concurrent edit is now current. Your save was preserved in History — reload, then "
            "restore it if needed.");
    case Kind::AlreadyCurrent:
        return QStringLiteral("This revision is already the current canvas.");
    case Kind::OutcomeUnknown:
        return QStringLiteral(
            "We couldn't confirm whether your save reached the relay. Your text is kept — retry "
            "to send the same save again.");
    case Kind::Error:
        return error ? error->longText() : QStringLiteral("Save failed.");
    }
    return {};
}

QString SaveOutcome::kindName() const
{
    switch (kind) {
    case Kind::SavedVerified:
        return QStringLiteral("saved");
    case Kind::SavedUnverified:
        return QStringLiteral("saved_unverified");
    case Kind::Conflict:
        return QStringLiteral("conflict");
    case Kind::Superseded:
        return QStringLiteral("superseded");
    case Kind::AlreadyCurrent:
        return QStringLiteral("already_current");
    case Kind::OutcomeUnknown:
        return QStringLiteral("outcome_unknown");
    case Kind::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("error");
}

} // namespace buzz::canvas
