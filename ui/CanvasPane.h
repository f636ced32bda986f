#pragma once

#include "canvas/CanvasSession.h"
#include "canvas/ChannelService.h"
#include "canvas/DraftStore.h"
#include "ui/UiServices.h"

#include <QWidget>

#include <optional>

namespace buzz::ui {

class CanvasDisplay;
class CanvasHeader;
class CanvasEditor;
class ChannelAccessNotice;
class NoticeBanner;
class SaveNotice;

// The canvas of one channel on screen: rendered Markdown by default, the editor with live preview
// while editing, author and time of the current revision always visible, and every outcome as an
// inline notice. It displays the channel's canvas::CanvasSession (which it opens per channel and
// owns) and keeps no canvas state of its own: the head, the edit base and the working text are
// the session's (the editor is the view of the working text). Nothing here clears the editor:
// conflicts, errors, live changes and channel switches keep the text in the editor, its undo
// stack or a draft, and every action that would leave the text behind asks first.
class CanvasPane : public QWidget
{
    Q_OBJECT
public:
    explicit CanvasPane(const UiServices &services, QWidget *parent = nullptr);
    ~CanvasPane() override;

    // Opens a new session for `channel` (the previous one flushes its draft and closes).
    void openChannel(const canvas::ChannelInfo &channel);
    void updateChannel(const canvas::ChannelInfo &channel); // permissions changed (join, archive)
    QString channelId() const { return m_channel.id; }
    const canvas::ChannelInfo &channel() const { return m_channel; }
    canvas::CanvasSession *session() const { return m_session; }

    // Views of the session (nullopt / false without a channel).
    std::optional<canvas::CanvasRevision> head() const
    {
        return m_session ? m_session->head() : std::nullopt;
    }
    bool isHeadKnown() const { return m_session && m_session->isHeadKnown(); }
    bool isEditing() const { return m_session && m_session->isEditing(); }
    bool isSaving() const
    {
        return m_session && m_session->state() == canvas::CanvasSession::State::Saving;
    }
    bool hasUnsavedChanges() const { return m_session && m_session->hasUnsavedChanges(); }
    bool isEditedSinceBase() const
    {
        return m_session && m_session->isEditing() && m_session->isEditedSinceBase();
    }
    std::optional<canvas::CanvasRevision> editBase() const
    {
        return m_session ? m_session->editBase() : std::nullopt;
    }
    CanvasEditor *editor() const { return m_editor; }

    // Actions (menu, toolbar and shortcuts).
    void toggleEditing(); // Ctrl+E
    void startEditing();
    void save(); // Ctrl+S; never blocks typing
    bool
    cancel(); // Esc: closes the topmost notice or asks to leave editing; false if nothing to do
    void reload(); // re-read the head (display read)
    void flushDraft(); // writes a pending autosave now (quit, relay switch)
    // Keyboard focus to the canvas: the editor while editing, else the rendered canvas. After
    // start, save, join and merge, so typing never lands in the channel filter.
    void focusCanvas();

signals:
    // A new session is open (channel switch): the History panel displays it too.
    void sessionOpened(buzz::canvas::CanvasSession *session);
    // The canvas (or its empty state) is on screen for `channel` — first paint after opening.
    void canvasShown(const QString &channel);
    void editingChanged(bool editing);
    void saveStateChanged(const QString &state); // status bar wording
    void relayProblem(const buzz::client::RelayError &error); // status bar + auth help
    void joinRequested(const QString &channel);
    void settingsRequested();
    void identityRequested();

private:
    void connectSession();
    void onLoadFinished(bool ok);
    void onEditingChanged(bool editing);
    void onWorkingTextReplaced(const QString &text, bool undoable);
    void onSettled(const canvas::CanvasSession::Settled &settled);
    void onLiveChange(const canvas::CanvasRevision &revision);
    void onDraftFailed(const client::RelayError &error, const canvas::Draft &draft);
    void render();
    void updateHeader();
    void updateSaveState();
    void openMerge(const canvas::CanvasSession::MergeOffer &offer, bool saveAfter);
    void askReload();
    void offerDrafts();
    void showRelayError(const client::RelayError &error, NoticeBanner *banner);
    QString authorName(const QString &pubkey) const;
    NoticeBanner *addConfirmBanner(const QString &name, const QString &confirmSuffix,
                                   const QString &confirmLabel, const QString &keepLabel);

    UiServices m_services;
    canvas::ChannelInfo m_channel;
    canvas::CanvasSession *m_session = nullptr;
    std::optional<canvas::Draft> m_offeredDraft; // the draft the banner offers
    bool m_applyingSessionText = false; // the editor changes because the session said so
    bool m_focusAfterSave = false; // the save was asked from the canvas: focus returns there

    CanvasHeader *m_header;
    NoticeBanner *m_loadError;
    ChannelAccessNotice *m_readOnly;
    SaveNotice *m_saveNotice;
    NoticeBanner *m_liveChange;
    NoticeBanner *m_draftBanner;
    NoticeBanner *m_discardConfirm;
    NoticeBanner *m_reloadConfirm;
    NoticeBanner *m_draftDiscardConfirm;
    CanvasEditor *m_editor;
    CanvasDisplay *m_display;
};

} // namespace buzz::ui
