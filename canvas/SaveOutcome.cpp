#include "canvas/SaveOutcome.h"

namespace buzz::canvas {

SaveOutcome SaveOutcome::failure(client::RelayError error)
{
    SaveOutcome outcome;
    outcome.kind = Kind::Error;
    outcome.error = std::move(error);
    return outcome;
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
