#include "canvas/SessionInvariants.h"

namespace buzz::canvas {

QStringList SessionInvariants::broken(const CanvasSession &session)
{
    using State = CanvasSession::State;
    QStringList broken;
    const auto require = [&broken](bool holds, const char *invariant) {
        if (!holds)
            broken.append(QString::fromLatin1(invariant));
    };
    const SessionState &state = session.m_state;
    // In every state.
    require(!session.m_waitingForRelay || state.edit(),
            "waiting for the relay only with an edit whose save waits to go out");
    require(!session.m_autoRetry.isActive() || session.m_waitingForRelay,
            "the automatic retry runs only while waiting for the relay");
    require(session.m_headSource != CanvasSession::HeadSource::None || !session.m_head,
            "no head without the read that reported it");
    switch (session.state()) {
    case State::Viewing:
        require(state.as<SessionState::Viewing>()->draftBaseRead <= session.m_draftBaseReads,
                "Viewing: the draft base read awaited is one this session started");
        break;
    case State::Editing:
    case State::Saving:
    case State::Merging:
        break;
    case State::OutcomeUnknown: {
        const SessionState::OutcomeUnknown &unknown = *state.as<SessionState::OutcomeUnknown>();
        require(unknown.unknown.kind == SaveOutcome::Kind::OutcomeUnknown,
                "OutcomeUnknown: the outcome kept is unknown");
        require(unknown.unknown.pending.has_value(),
                "OutcomeUnknown: the signed event is kept for Retry");
        require(unknown.save || session.m_lastRestore,
                "OutcomeUnknown: an unknown restore was started by restore()");
        break;
    }
    case State::Restoring:
        require(session.m_lastRestore.has_value(), "Restoring: its target is kept for a Retry");
        break;
    }
    return broken;
}

void SessionInvariants::check([[maybe_unused]] const CanvasSession &session)
{
#ifndef QT_NO_DEBUG
    const QStringList found = broken(session);
    Q_ASSERT_X(found.isEmpty(), "CanvasSession", qPrintable(found.join(QStringLiteral("; "))));
#endif
}

} // namespace buzz::canvas
