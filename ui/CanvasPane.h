#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/ChannelService.h"
#include "canvas/DraftStore.h"
#include "canvas/SaveOutcome.h"
#include "ui/UiServices.h"

#include <QSet>
#include <QWidget>

#include <optional>

namespace buzz::ui {

class CanvasDisplay;
class CanvasDraftSession;
class CanvasHeader;
class CanvasEditor;
class NoticeBanner;

// The canvas of one channel: rendered Markdown by default, the editor with live preview while
// editing, author and time of the current revision always visible, and every relay outcome as an
// inline notice. The edit base is the head captured when editing started; saves are the data
// layer's compare-and-swap. Nothing here ever clears the editor: conflicts, errors, live changes
// and channel switches keep the text (in the editor, its undo stack, or a draft).
class CanvasPane : public QWidget
{
    Q_OBJECT
public:
    explicit CanvasPane(const UiServices &services, QWidget *parent = nullptr);
    ~CanvasPane() override;

    void openChannel(const canvas::ChannelInfo &channel);
    void updateChannel(const canvas::ChannelInfo &channel); // permissions changed (join, archive)
    QString channelId() const { return m_channel.id; }
    const canvas::ChannelInfo &channel() const { return m_channel; }

    std::optional<canvas::CanvasRevision> head() const { return m_head; }
    bool isHeadKnown() const { return m_headKnown; }
    bool isEditing() const { return m_editing; }
    bool isSaving() const { return m_saving; }
    bool hasUnsavedChanges() const;
    std::optional<canvas::CanvasRevision> editBase() const { return m_editBase; }
    CanvasEditor *editor() const { return m_editor; }

    // Actions (menu, toolbar and shortcuts).
    void toggleEditing(); // Ctrl+E
    void startEditing();
    void save(); // Ctrl+S
    bool
    cancel(); // Esc: closes the topmost notice or asks to leave editing; false if nothing to do
    void reload(); // re-read the head (display read)
    void flushDraft(); // writes a pending autosave now (quit, relay switch)
    // A revision that became current through another path (restore from History).
    void adoptHead(const canvas::CanvasRevision &revision);

signals:
    void headChanged(const std::optional<buzz::canvas::CanvasRevision> &head);
    // The canvas (or its empty state) is on screen for `channel` — first paint after opening.
    void canvasShown(const QString &channel);
    void editingChanged(bool editing);
    void saveStateChanged(const QString &state); // status bar wording
    void saveSettled(const buzz::canvas::SaveOutcome &outcome);
    void relayProblem(const buzz::client::RelayError &error); // status bar + auth help
    void joinRequested(const QString &channel);
    void settingsRequested();
    void identityRequested();

private:
    enum class Page { State, View, Edit };

    void loadHead();
    void onHeadLoaded(const client::Result<std::optional<canvas::CanvasRevision>> &result);
    void setHead(const std::optional<canvas::CanvasRevision> &head);
    void render();
    void updateHeader();
    void updateReadOnlyNotice();
    void enterEditing(const std::optional<canvas::CanvasRevision> &base, const QString &text);
    void leaveEditing();
    void runSave(QString text);
    void onSaveFinished(const canvas::SaveOutcome &outcome, const QString &text);
    void openMerge(const std::optional<canvas::CanvasRevision> &base, const QString &baseText,
                   const QString &mine, const std::optional<canvas::CanvasRevision> &theirs,
                   bool saveAfter, bool startEditing);
    void onLiveChange(const QString &channel, const canvas::CanvasRevision &revision);
    void offerDrafts();
    void restoreDraft(
        canvas::Draft draft); // by value: it usually comes from m_offeredDraft, which it resets
    void onEditorChanged();
    void autosaveNow();
    void showRelayError(const client::RelayError &error, NoticeBanner *banner);
    void setSaveState(const QString &state);
    QString authorName(const QString &pubkey) const;

    UiServices m_services;
    canvas::ChannelInfo m_channel;
    std::optional<canvas::CanvasRevision> m_head;
    bool m_headKnown =
        false; // a head read succeeded for this channel (the edit base is trustworthy)
    bool m_loading = false;
    bool m_editing = false;
    bool m_saving = false;
    bool m_loadingEditor = false;
    std::optional<canvas::CanvasRevision> m_editBase;
    QString m_baseText;
    std::optional<canvas::CanvasRevision>
        m_liveTheirs; // a newer revision that arrived while editing
    std::optional<canvas::SaveOutcome> m_lastOutcome; // for Merge / Retry on the save notice
    std::optional<canvas::Draft> m_offeredDraft;
    QSet<QString>
        m_ownRevisions; // ids we published: live echoes of them are not "changes by others"
    quint64 m_generation = 0;

    CanvasHeader *m_header;
    NoticeBanner *m_loadError;
    NoticeBanner *m_readOnly;
    NoticeBanner *m_saveNotice;
    NoticeBanner *m_liveChange;
    NoticeBanner *m_draftBanner;
    NoticeBanner *m_discardConfirm;
    CanvasDraftSession *m_drafts;
    CanvasEditor *m_editor;
    CanvasDisplay *m_display;
};

} // namespace buzz::ui
