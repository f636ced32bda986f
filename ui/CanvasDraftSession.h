#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/DraftStore.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <optional>

class QTimer;

namespace buzz::ui {

// The drafts side of editing one channel's canvas, kept apart from the widgets: the autosave
// debounce (a keystroke restarts a timer; it never copies the text), which draft files this edit
// wrote (a verified save removes exactly those, not a draft another window is writing), and which
// stored draft to offer when the canvas opens. Drafts are keyed by the revision the edit started
// from, so a restored draft is saved as a compare-and-swap against that revision.
class CanvasDraftSession : public QObject
{
    Q_OBJECT
public:
    CanvasDraftSession(canvas::DraftStore *store, QString relayKey, QString community,
                       QObject *parent = nullptr);

    bool isAvailable() const { return m_store != nullptr; }
    void setChannel(const QString &channel); // forgets the previous edit's files
    canvas::DraftKey keyFor(const std::optional<canvas::CanvasRevision> &base) const;

    void beginEdit(); // a new edit: nothing written by it yet
    void textEdited(); // (re)starts the debounce; autosaveDue follows unless stopped
    void stopAutosave();
    bool autosavePending() const;
    void store(const std::optional<canvas::CanvasRevision> &base, const QString &text);
    void flushToDisk(); // the store's own write-behind, e.g. before quitting

    void discard(const std::optional<canvas::CanvasRevision> &base);
    void discard(const canvas::DraftKey &key);
    // After a verified save from `base`: its draft and every other draft this edit wrote.
    void discardAfterVerifiedSave(const std::optional<canvas::CanvasRevision> &base);
    // The newest stored draft worth offering; drafts whose text is already the head's are
    // deleted on the way (someone saved exactly that).
    std::optional<canvas::Draft> draftToOffer(const std::optional<canvas::CanvasRevision> &head);

signals:
    void autosaveDue(); // the owner answers with store(base, current text)
    void draftStored(const buzz::canvas::DraftKey &key);

private:
    canvas::DraftStore *m_store;
    QString m_relayKey;
    QString m_community;
    QString m_channel;
    QSet<QString> m_filesWrittenThisEdit;
    QTimer *m_debounce;
};

} // namespace buzz::ui
