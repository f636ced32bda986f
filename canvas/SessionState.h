#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/SaveOutcome.h"

#include <QString>

#include <optional>
#include <variant>

namespace buzz::canvas {

// A three-way merge to offer: after a conflict (mine = the working text) or a superseded save
// that left editing (mine = what was saved).
struct MergeOffer
{
    std::optional<CanvasRevision> base;
    QString baseText;
    QString mine;
    std::optional<CanvasRevision> theirs;
};

// The state of one open canvas as a value: which of CanvasSession::State it is, and what that
// state carries, so that what a state cannot have it cannot hold (the invariants are written
// under CanvasSession::State). The alternatives are in the order of CanvasSession::State.
// CanvasSession changes it only through CanvasSession::enter(); the functions here say what a
// state is made of and where a settled write leads, without side effects.
class SessionState
{
public:
    // What an edit carries, in every state that has one.
    struct Edit
    {
        std::optional<CanvasRevision> base; // what the edit STARTED from, never the live head
        bool edited = false; // a keystroke since the base moved
        std::optional<CanvasRevision> liveChange; // a newer revision by someone else
    };
    // An edit whose save is unsettled (Saving, an unknown save).
    struct EditUnderSave
    {
        Edit edit;
        std::optional<CanvasRevision> theirs; // saved from Merging: back to it if it fails
        bool saveAgain = false; // Save pressed meanwhile: the newer text goes once it lands
    };
    struct Viewing
    {
        std::optional<MergeOffer> superseded; // a superseded save left editing: merge offered
        quint64 draftBaseRead = 0; // the read of a restored draft's base awaited (0: none)
    };
    struct Editing
    {
        Edit edit;
    };
    struct Saving
    {
        EditUnderSave save;
        QString sent; // what the signed event carries (tells its live echo from a change)
    };
    struct OutcomeUnknown
    {
        SaveOutcome unknown; // its `pending` is the signed event Retry re-sends
        std::optional<EditUnderSave> save; // none: an unknown restore
    };
    struct Merging
    {
        Edit edit;
        CanvasRevision theirs;
    };
    struct Restoring
    {
    };
    using Data = std::variant<Viewing, Editing, Saving, OutcomeUnknown, Merging, Restoring>;

    SessionState(); // Viewing
    const Data &data() const { return m_data; }
    // CanvasSession::State's value.
    int index() const { return int(m_data.index()); }
    template<class S>
    S *as()
    {
        return std::get_if<S>(&m_data);
    }
    template<class S>
    const S *as() const
    {
        return std::get_if<S>(&m_data);
    }
    void set(Data data) { m_data = std::move(data); }

    const Edit *edit() const; // null in the states without an edit
    Edit *edit();
    const std::optional<CanvasRevision> &editBase() const; // none without an edit
    std::optional<CanvasRevision> conflictTheirs() const; // Merging, or saved from it
    bool saveAgain() const; // Save pressed while a save was in flight or unknown

    // An edit with nothing in flight: Merging while there is theirs to merge with, else Editing.
    static Data atRest(Edit edit, std::optional<CanvasRevision> theirs);
    // Where a save settled with `outcome` leads from Saving (its edit as it is now). A save
    // superseded with nothing typed since has already left editing: it stays where it is.
    Data afterSave(const SaveOutcome &outcome) const;
    // Where a restore settled with `outcome` leads from Restoring.
    static Data afterRestore(const SaveOutcome &outcome);
    // After a merge was accepted: the edit without its conflict or live change; an unknown
    // save stays unknown (its event must be settled first).
    Data afterMerge() const;

private:
    Data m_data;
};

} // namespace buzz::canvas
