#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/DraftStore.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <optional>

namespace buzz::canvas {

// Where an open canvas keeps its drafts: the store and the relay/community part of their keys.
struct DraftScope
{
    DraftStore *store = nullptr; // none: drafts are off (CLI, some tests)
    QString relayKey; // stable name of the relay (the embedded relay changes port every run)
    QString community;
};

// The drafts of one channel's canvas, without any widget: the autosave timing (a keystroke
// restarts a short timer and never copies the text; a second timer, started by the first
// keystroke not yet on disk, bounds the wait however continuously one types), whether everything
// typed is on disk, which draft files the current edit wrote, and which stored draft to offer when
// the canvas opens. Drafts are keyed by the revision the edit
// started from, so a restored draft is saved as a compare-and-swap against that revision.
//
// The invariant this class protects: a draft file is deleted only when the user discards it, or
// when the editor text it protects is in a verified revision — the edit is complete, and every
// draft this edit wrote is an earlier state of that editor. While the edit goes on (a save landed
// with later changes, a merge moved the base) every draft it wrote stays on disk.
class CanvasDrafts : public QObject
{
    Q_OBJECT
public:
    // A pause this long in typing writes the draft...
    static constexpr int kAutosaveDelayMs = 1000;
    // ...and so does this long after the first keystroke not yet on disk, however continuously
    // one types: with the write itself (on DraftWriter's thread, tens of milliseconds for a
    // 256 KiB canvas), every keystroke is on disk within 2 s.
    static constexpr int kAutosaveMaxDelayMs = 1500;

    CanvasDrafts(DraftScope scope, QString channel, QObject *parent = nullptr);

    bool isAvailable() const { return m_scope.store != nullptr; }
    DraftKey keyFor(const std::optional<CanvasRevision> &base) const;

    // A new edit: nothing written by it yet. (When the edit moves to another base — a save
    // landed, a merge was accepted — it stays the same edit: later drafts are keyed by the new
    // base and earlier ones stay until a verified revision covers them.)
    // `continuing`: the stored draft this edit takes up (restored, or found on its base); the
    // edit writes to it. Otherwise a draft already on disk for a base is another edit's, and
    // this edit writes its own copy beside it (never over it: that one may hold words that are
    // nowhere else, e.g. an edit killed before its save, whose draft the user has not restored).
    void beginEdit(const std::optional<DraftKey> &continuing = std::nullopt);

    void textEdited(); // (re)starts the debounce; autosaveDue follows unless stopped
    void stopAutosave();
    bool autosavePending() const { return m_debounce.isActive(); }
    // How the promise above stands, for a status display or a check from outside: how long until
    // the pending autosave falls due (the debounce or the maximum wait, whichever comes first;
    // negative when it is due and the event loop has not run since, e.g. on a busy machine), and
    // how long the write of the newest text has been with the writer thread. Empty when there is
    // none.
    std::optional<qint64> autosaveDueInMs() const;
    std::optional<qint64> writingForMs() const;
    // Writes `text` as the draft of `base` now. False when the disk write failed.
    bool store(const std::optional<CanvasRevision> &base, const QString &text);
    // The autosave: `text` goes to disk on the writer thread; typing goes on meanwhile.
    void storeInBackground(const std::optional<CanvasRevision> &base, const QString &text);
    // When everything typed in this edit is on disk: the time it got there. Empty while a
    // keystroke is not yet written (or the last write failed, or nothing was written).
    std::optional<QDateTime> autosavedAt() const;
    std::optional<Draft> load(const std::optional<CanvasRevision> &base) const;
    void flushToDisk(); // the store's own write-behind, e.g. before quitting

    void discard(const std::optional<CanvasRevision> &base);
    void discard(const DraftKey &key);
    // The editor is back at the text of `base`: the draft this edit wrote for it goes (its text
    // was typed and then removed again by the user).
    void withdraw(const std::optional<CanvasRevision> &base);
    // The edit's text is exactly a revision the writer confirmed: every draft this edit wrote
    // goes. Drafts of other windows (not written by this edit) stay.
    void discardEditDrafts();
    // The newest stored draft worth offering; drafts whose text is already the head's are
    // deleted on the way (someone saved exactly that).
    std::optional<Draft> draftToOffer(const std::optional<CanvasRevision> &head);

signals:
    void autosaveDue(); // the owner answers with storeInBackground(base, current text)
    void draftStored(const buzz::canvas::DraftKey &key);
    void autosavedChanged(); // autosavedAt() changed

private:
    DraftKey writeKeyFor(const std::optional<CanvasRevision> &base); // this edit's file for base
    void fire();
    void setOnDisk(bool onDisk);

    DraftScope m_scope;
    QString m_channel;
    // Files this edit wrote: only those are ever deleted for a completed edit, never a draft
    // another window is writing.
    QSet<QString> m_writtenThisEdit;
    QHash<QString, DraftKey> m_editKeys; // natural key's file name → the key this edit writes
    QTimer m_debounce;
    QTimer m_maxWait;
    QDeadlineTimer m_debounceDue; // when each timer falls due (QTimer does not say once it is due)
    QDeadlineTimer m_maxWaitDue;
    QElapsedTimer m_writingSince; // when the write of m_writing was handed to the writer
    quint64 m_writing = 0; // the background write of the newest text, until it finished
    bool m_typedSinceWrite = false; // a keystroke not in the newest write
    bool m_onDisk = false; // the newest write is on disk and nothing was typed since
    QDateTime m_writtenAt;
};

} // namespace buzz::canvas
