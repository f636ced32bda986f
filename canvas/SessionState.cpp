#include "canvas/SessionState.h"

#include "canvas/CanvasSession.h"

#include <type_traits>

namespace buzz::canvas {

// SessionState's alternatives are the states, in order: state() is the variant's index.
template<CanvasSession::State state, class Alternative>
constexpr bool kIsAlternative =
    std::is_same_v<std::variant_alternative_t<std::size_t(state), SessionState::Data>, Alternative>;
static_assert(std::variant_size_v<SessionState::Data> == 6);
static_assert(kIsAlternative<CanvasSession::State::Viewing, SessionState::Viewing>);
static_assert(kIsAlternative<CanvasSession::State::Editing, SessionState::Editing>);
static_assert(kIsAlternative<CanvasSession::State::Saving, SessionState::Saving>);
static_assert(kIsAlternative<CanvasSession::State::OutcomeUnknown, SessionState::OutcomeUnknown>);
static_assert(kIsAlternative<CanvasSession::State::Merging, SessionState::Merging>);
static_assert(kIsAlternative<CanvasSession::State::Restoring, SessionState::Restoring>);

SessionState::SessionState()
    : m_data(Viewing {})
{ }

const SessionState::Edit *SessionState::edit() const
{
    if (const auto *editing = as<Editing>())
        return &editing->edit;
    if (const auto *saving = as<Saving>())
        return &saving->save.edit;
    if (const auto *merging = as<Merging>())
        return &merging->edit;
    if (const auto *unknown = as<OutcomeUnknown>(); unknown && unknown->save)
        return &unknown->save->edit;
    return nullptr;
}

SessionState::Edit *SessionState::edit()
{
    return const_cast<Edit *>(std::as_const(*this).edit());
}

const std::optional<CanvasRevision> &SessionState::editBase() const
{
    static const std::optional<CanvasRevision> none;
    const Edit *current = edit();
    return current ? current->base : none;
}

std::optional<CanvasRevision> SessionState::conflictTheirs() const
{
    if (const auto *merging = as<Merging>())
        return merging->theirs;
    if (const auto *saving = as<Saving>())
        return saving->save.theirs;
    if (const auto *unknown = as<OutcomeUnknown>(); unknown && unknown->save)
        return unknown->save->theirs;
    return std::nullopt;
}

bool SessionState::saveAgain() const
{
    if (const auto *saving = as<Saving>())
        return saving->save.saveAgain;
    const auto *unknown = as<OutcomeUnknown>();
    return unknown && unknown->save && unknown->save->saveAgain;
}

SessionState::Data SessionState::atRest(Edit edit, std::optional<CanvasRevision> theirs)
{
    if (theirs)
        return Merging {std::move(edit), std::move(*theirs)};
    return Editing {std::move(edit)};
}

SessionState::Data SessionState::afterSave(const SaveOutcome &outcome) const
{
    const auto *saving = as<Saving>();
    if (!saving)
        return m_data;
    const EditUnderSave &save = saving->save;
    using Kind = SaveOutcome::Kind;
    switch (outcome.kind) {
    case Kind::SavedVerified:
    case Kind::SavedUnverified:
    case Kind::AlreadyCurrent:
        return Editing {save.edit}; // what landed resolves the conflict it was saved from
    case Kind::Conflict:
        // Without theirs (the channel lost its canvas, or the read failed) there is nothing to
        // merge with: the edit stays as it is and a later Save asks again.
        return atRest(save.edit, outcome.theirs);
    case Kind::OutcomeUnknown:
        return OutcomeUnknown {outcome, save}; // Save pressed meanwhile waits with it
    case Kind::Superseded: // typed since: the edit goes on over ours
    case Kind::Error:
        break;
    }
    return atRest(save.edit, save.theirs);
}

SessionState::Data SessionState::afterRestore(const SaveOutcome &outcome)
{
    if (outcome.kind == SaveOutcome::Kind::OutcomeUnknown)
        return OutcomeUnknown {outcome, std::nullopt};
    return Viewing {};
}

SessionState::Data SessionState::afterMerge() const
{
    Edit resolved = *edit();
    resolved.liveChange.reset();
    if (const auto *unknown = as<OutcomeUnknown>())
        return OutcomeUnknown {unknown->unknown,
                               EditUnderSave {resolved, std::nullopt, unknown->save->saveAgain}};
    return Editing {resolved};
}

} // namespace buzz::canvas
