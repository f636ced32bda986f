#include "ui/CanvasPane.h"

#include "canvas/CanvasService.h"
#include "canvas/ProfileCache.h"
#include "ui/CanvasDisplay.h"
#include "ui/CanvasDraftSession.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasHeader.h"
#include "ui/ConflictDialog.h"
#include "ui/NoticeBanner.h"
#include "ui/UiFormat.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <qcoro/qcorotask.h>

Q_LOGGING_CATEGORY(lcCanvasPane, "buzz.ui.canvas")

namespace buzz::ui {

using Kind = canvas::SaveOutcome::Kind;

namespace {

// Does `candidate` sort ahead of `head` in the relay's order (created_at DESC, id ASC)?
bool sortsAhead(const canvas::CanvasRevision &candidate,
                const std::optional<canvas::CanvasRevision> &head)
{
    if (!head)
        return true;
    if (candidate.createdAt != head->createdAt)
        return candidate.createdAt > head->createdAt;
    return candidate.eventId.compare(head->eventId, Qt::CaseInsensitive) < 0;
}

} // namespace

CanvasPane::CanvasPane(const UiServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_header(new CanvasHeader(this))
    , m_loadError(new NoticeBanner(QStringLiteral("loadErrorBanner"), this))
    , m_readOnly(new NoticeBanner(QStringLiteral("readOnlyNotice"), this))
    , m_saveNotice(new NoticeBanner(QStringLiteral("saveNotice"), this))
    , m_liveChange(new NoticeBanner(QStringLiteral("liveChangeBanner"), this))
    , m_draftBanner(new NoticeBanner(QStringLiteral("draftBanner"), this))
    , m_discardConfirm(new NoticeBanner(QStringLiteral("discardConfirmBanner"), this))
    , m_drafts(new CanvasDraftSession(services.drafts, services.draftRelayKey,
                                      services.draftCommunity, this))
    , m_editor(new CanvasEditor(this))
    , m_display(new CanvasDisplay(m_editor, this)) // after m_editor: it shows it as a page
{
    setObjectName(QStringLiteral("canvasPane"));

    connect(m_header, &CanvasHeader::editClicked, this, &CanvasPane::startEditing);
    connect(m_header, &CanvasHeader::saveClicked, this, &CanvasPane::save);
    connect(m_header, &CanvasHeader::cancelClicked, this, &CanvasPane::cancel);

    m_loadError->addAction(QStringLiteral("Retry"), tr("&Retry"));
    connect(m_loadError->action(QStringLiteral("Retry")), &QPushButton::clicked, this,
            &CanvasPane::reload);
    m_loadError->addAction(QStringLiteral("Settings"), tr("Settings…"));
    connect(m_loadError->action(QStringLiteral("Settings")), &QPushButton::clicked, this,
            &CanvasPane::settingsRequested);
    m_loadError->addAction(QStringLiteral("Identity"), tr("Identity…"));
    connect(m_loadError->action(QStringLiteral("Identity")), &QPushButton::clicked, this,
            &CanvasPane::identityRequested);

    m_readOnly->addAction(QStringLiteral("Join"), tr("&Join channel"));
    m_readOnly->setClosable(false);
    connect(m_readOnly->action(QStringLiteral("Join")), &QPushButton::clicked, this,
            [this] { emit joinRequested(m_channel.id); });

    m_saveNotice->addAction(QStringLiteral("Merge"), tr("&Merge…"));
    m_saveNotice->addAction(QStringLiteral("Retry"), tr("&Retry"));
    connect(m_saveNotice->action(QStringLiteral("Merge")), &QPushButton::clicked, this, [this] {
        if (!m_lastOutcome)
            return;
        const canvas::SaveOutcome outcome = *m_lastOutcome;
        if (outcome.kind == Kind::Conflict) {
            openMerge(outcome.base, outcome.base ? outcome.base->content : QString(),
                      m_editor->text(), outcome.theirs, true, false);
        } else if (outcome.kind == Kind::Superseded && outcome.saved) {
            // Ours landed but someone else's unrelated write is current: merge ours into theirs.
            openMerge(m_editBase, m_baseText, outcome.saved->content, outcome.head, true, true);
        }
    });
    connect(m_saveNotice->action(QStringLiteral("Retry")), &QPushButton::clicked, this, [this] {
        if (!m_lastOutcome || m_saving)
            return;
        if (m_lastOutcome->kind == Kind::OutcomeUnknown) {
            m_saving = true;
            setSaveState(tr("Saving…"));
            updateHeader();
            const QString text = m_editor->text();
            QCoro::connect(
                m_services.canvas->resubmit(*m_lastOutcome), this,
                [this, text](canvas::SaveOutcome outcome) { onSaveFinished(outcome, text); });
        } else {
            save();
        }
    });

    m_liveChange->addAction(QStringLiteral("Reload"), tr("&Reload"));
    m_liveChange->addAction(QStringLiteral("Merge"), tr("&Merge…"));
    connect(m_liveChange->action(QStringLiteral("Reload")), &QPushButton::clicked, this, [this] {
        // Leaving the edit keeps the text as a draft (offered again below), then shows theirs.
        flushDraft();
        const auto theirs = m_liveTheirs;
        leaveEditing();
        if (theirs)
            setHead(theirs);
        render();
        offerDrafts();
    });
    connect(m_liveChange->action(QStringLiteral("Merge")), &QPushButton::clicked, this, [this] {
        if (m_liveTheirs)
            openMerge(m_editBase, m_baseText, m_editor->text(), m_liveTheirs, false, false);
    });

    m_draftBanner->addAction(QStringLiteral("Restore"), tr("Restore &draft"));
    m_draftBanner->addAction(QStringLiteral("Discard"), tr("Discard"));
    connect(m_draftBanner->action(QStringLiteral("Restore")), &QPushButton::clicked, this, [this] {
        if (m_offeredDraft)
            restoreDraft(*m_offeredDraft);
    });
    connect(m_draftBanner->action(QStringLiteral("Discard")), &QPushButton::clicked, this, [this] {
        if (m_offeredDraft)
            m_drafts->discard(m_offeredDraft->key);
        m_offeredDraft.reset();
        m_draftBanner->hide();
        offerDrafts(); // there may be an older one
    });

    m_discardConfirm->addAction(QStringLiteral("Discard"), tr("&Discard changes"));
    m_discardConfirm->addAction(QStringLiteral("Keep"), tr("&Keep editing"));
    connect(m_discardConfirm->action(QStringLiteral("Discard")), &QPushButton::clicked, this,
            [this] {
                m_drafts->discard(m_editBase);
                leaveEditing();
                render();
            });
    connect(m_discardConfirm->action(QStringLiteral("Keep")), &QPushButton::clicked, this, [this] {
        m_discardConfirm->hide();
        m_editor->editor()->setFocus();
    });

    connect(m_drafts, &CanvasDraftSession::autosaveDue, this, &CanvasPane::autosaveNow);
    connect(m_editor, &CanvasEditor::textEdited, this, &CanvasPane::onEditorChanged);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_header);
    for (NoticeBanner *banner :
         {m_loadError, m_readOnly, m_liveChange, m_draftBanner, m_saveNotice, m_discardConfirm})
        layout->addWidget(banner);
    layout->addWidget(m_display, 1);

    connect(m_services.canvas, &canvas::CanvasService::canvasChanged, this,
            &CanvasPane::onLiveChange);
    if (m_services.profiles) {
        connect(m_services.profiles, &canvas::ProfileCache::profilesUpdated, this,
                &CanvasPane::updateHeader);
    }
    connect(m_drafts, &CanvasDraftSession::draftStored, this, [this](const canvas::DraftKey &key) {
        if (m_editing && key == m_drafts->keyFor(m_editBase))
            setSaveState(tr("Draft autosaved %1")
                             .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    });

    m_display->showState(tr("Choose a channel to see its canvas."));
    updateHeader();
}

CanvasPane::~CanvasPane()
{
    // Pending autosaves reach the disk even when the window closes mid-edit.
    if (m_drafts->isAvailable())
        flushDraft();
}

void CanvasPane::flushDraft()
{
    if (m_drafts->autosavePending()) {
        m_drafts->stopAutosave();
        autosaveNow();
    }
    m_drafts->flushToDisk();
}

QString CanvasPane::authorName(const QString &pubkey) const
{
    return m_services.profiles ? m_services.profiles->displayName(pubkey) : pubkey.left(12);
}

bool CanvasPane::hasUnsavedChanges() const
{
    return m_editing && m_editor->text() != m_baseText;
}

void CanvasPane::openChannel(const canvas::ChannelInfo &channel)
{
    if (m_drafts->isAvailable())
        flushDraft(); // the previous channel's edit stays recoverable
    if (!m_channel.id.isEmpty() && m_channel.id != channel.id)
        m_services.canvas->unwatch(m_channel.id);
    ++m_generation;
    m_channel = channel;
    m_head.reset();
    m_headKnown = false;
    m_editing = false;
    m_saving = false;
    m_editBase.reset();
    m_baseText.clear();
    m_liveTheirs.reset();
    m_lastOutcome.reset();
    m_offeredDraft.reset();
    m_drafts->setChannel(channel.id);
    for (NoticeBanner *banner :
         {m_loadError, m_saveNotice, m_liveChange, m_draftBanner, m_discardConfirm})
        banner->hide();
    m_editor->setReadOnly(false);
    m_services.canvas->watch(m_channel.id);
    emit editingChanged(false);
    setSaveState({});
    loadHead();
}

void CanvasPane::updateChannel(const canvas::ChannelInfo &channel)
{
    if (channel.id != m_channel.id)
        return;
    m_channel = channel;
    updateHeader();
}

void CanvasPane::reload()
{
    if (m_channel.id.isEmpty())
        return;
    loadHead();
}

void CanvasPane::loadHead()
{
    m_loading = true;
    if (!m_headKnown && !m_editing) {
        m_display->showState(tr("Loading canvas…"));
    }
    updateHeader();
    const quint64 generation = m_generation;
    QCoro::connect(
        m_services.canvas->head(m_channel.id, canvas::ReadIntent::Display), this,
        [this, generation](client::Result<std::optional<canvas::CanvasRevision>> result) {
            if (generation == m_generation)
                onHeadLoaded(result);
        });
}

void CanvasPane::onHeadLoaded(const client::Result<std::optional<canvas::CanvasRevision>> &result)
{
    m_loading = false;
    if (!result) {
        // A failed refresh never unmounts what is shown or clears notices (postsnapshot §2.2).
        if (!m_headKnown && !m_editing) {
            m_display->showState(result.error().shortText());
        }
        showRelayError(result.error(), m_loadError);
        updateHeader();
        emit relayProblem(result.error());
        emit canvasShown(m_channel.id);
        return;
    }
    m_loadError->hide();
    const auto &head = result.value();
    // A display read may come from a lagging replica: never step back behind a head we already
    // know (our own verified save, a live event).
    if (!m_headKnown || !m_head || (head && sortsAhead(*head, m_head)))
        setHead(head);
    m_headKnown = true;
    render();
    emit canvasShown(m_channel.id);
    if (!m_editing)
        offerDrafts();
}

void CanvasPane::setHead(const std::optional<canvas::CanvasRevision> &head)
{
    m_head = head;
    if (head && m_services.profiles)
        m_services.profiles->request({head->author});
    updateHeader();
    emit headChanged(m_head);
}

void CanvasPane::adoptHead(const canvas::CanvasRevision &revision)
{
    if (revision.channel.compare(m_channel.id, Qt::CaseInsensitive) != 0
        && !revision.channel.isEmpty())
        return;
    m_ownRevisions.insert(revision.eventId.toLower());
    if (!sortsAhead(revision, m_head) && m_head && !m_head->hasId(revision.eventId))
        return;
    if (m_editing) {
        m_liveTheirs = revision;
        m_liveChange->showMessage(tr("Changed by %1").arg(authorName(revision.author)),
                                  NoticeBanner::Tone::Info);
        return;
    }
    setHead(revision);
    m_headKnown = true;
    render();
}

void CanvasPane::render()
{
    if (m_editing) {
        m_display->showEditor();
    } else if (m_head) {
        m_display->showContent(m_head->content);
    } else if (m_headKnown) {
        m_display->showState(tr("No canvas set for this channel."));
    }
    updateHeader();
}

void CanvasPane::updateHeader()
{
    CanvasHeader::State state;
    state.channelId = m_channel.id;
    state.channelName = m_channel.name;
    state.canEdit = m_channel.canEditCanvas();
    state.head = m_head;
    state.headAuthorName = m_head ? authorName(m_head->author) : QString();
    state.editBase = m_editBase;
    state.headKnown = m_headKnown;
    state.loading = m_loading;
    state.editing = m_editing;
    state.saving = m_saving;
    m_header->setState(state);
    updateReadOnlyNotice();
}

void CanvasPane::updateReadOnlyNotice()
{
    if (m_channel.id.isEmpty() || m_channel.canEditCanvas()) {
        m_readOnly->hide();
        return;
    }
    if (m_channel.archived) {
        m_readOnly->showMessage(tr("This channel is archived — its canvas is read-only."),
                                NoticeBanner::Tone::Info);
        m_readOnly->setActionVisible(QStringLiteral("Join"), false);
    } else if (m_channel.isDirectMessage()) {
        m_readOnly->showMessage(tr("Direct messages have no editable canvas."),
                                NoticeBanner::Tone::Info);
        m_readOnly->setActionVisible(QStringLiteral("Join"), false);
    } else if (!m_channel.isMember) {
        m_readOnly->showMessage(m_channel.isPrivate
                                    ? tr("Read-only: you are not a member of this private channel.")
                                    : tr("Read-only until you join this open channel."),
                                NoticeBanner::Tone::Info);
        m_readOnly->setActionVisible(QStringLiteral("Join"), !m_channel.isPrivate);
    }
}

void CanvasPane::toggleEditing()
{
    if (m_editing)
        cancel();
    else
        startEditing();
}

void CanvasPane::startEditing()
{
    if (m_editing) {
        m_editor->editor()->setFocus();
        return;
    }
    if (m_channel.id.isEmpty() || !m_channel.canEditCanvas() || !m_headKnown)
        return;
    enterEditing(m_head, m_head ? m_head->content : QString());
}

void CanvasPane::enterEditing(const std::optional<canvas::CanvasRevision> &base,
                              const QString &text)
{
    m_editBase = base; // the base is what the edit STARTED from, never the live head
    m_baseText = base ? base->content : QString();
    m_editing = true;
    m_liveTheirs.reset();
    m_discardConfirm->hide();
    m_draftBanner->hide();
    m_drafts->beginEdit();
    m_loadingEditor = true;
    m_editor->loadText(text);
    m_loadingEditor = false;
    m_editor->setReadOnly(false);
    m_display->showEditor();
    m_editor->editor()->setFocus();
    setSaveState(text == m_baseText ? QString() : tr("Unsaved changes"));
    if (text != m_baseText)
        onEditorChanged();
    updateHeader();
    emit editingChanged(true);
}

void CanvasPane::leaveEditing()
{
    m_drafts->stopAutosave();
    m_editing = false;
    m_saving = false;
    m_liveTheirs.reset();
    m_liveChange->hide();
    m_discardConfirm->hide();
    m_editor->setReadOnly(false);
    setSaveState({});
    updateHeader();
    emit editingChanged(false);
}

void CanvasPane::onEditorChanged()
{
    if (m_loadingEditor || !m_editing)
        return;
    setSaveState(tr("Unsaved changes"));
    m_drafts->textEdited();
}

void CanvasPane::autosaveNow()
{
    if (!m_editing)
        return;
    const QString text = m_editor->text();
    if (text == m_baseText) {
        setSaveState({});
        return;
    }
    m_drafts->store(m_editBase, text);
}

void CanvasPane::save()
{
    if (!m_editing || m_saving || !m_channel.canEditCanvas())
        return;
    runSave(m_editor->text());
}

void CanvasPane::runSave(QString text)
{
    m_saving = true;
    m_saveNotice->hide();
    m_discardConfirm->hide();
    m_editor->setReadOnly(true); // what is on screen is exactly what is being saved
    setSaveState(tr("Saving…"));
    updateHeader();
    const quint64 generation = m_generation;
    QCoro::connect(m_services.canvas->save(m_channel.id, m_editBase, text), this,
                   [this, generation, text](canvas::SaveOutcome outcome) {
                       if (generation == m_generation)
                           onSaveFinished(outcome, text);
                   });
}

void CanvasPane::onSaveFinished(const canvas::SaveOutcome &outcome, const QString &text)
{
    m_saving = false;
    m_editor->setReadOnly(false);
    m_lastOutcome = outcome;
    if (outcome.saved)
        m_ownRevisions.insert(outcome.saved->eventId.toLower());
    m_saveNotice->setActionVisible(QStringLiteral("Merge"), false);
    m_saveNotice->setActionVisible(QStringLiteral("Retry"), false);

    switch (outcome.kind) {
    case Kind::SavedVerified:
    case Kind::SavedUnverified: {
        if (outcome.kind == Kind::SavedVerified) {
            m_drafts->discardAfterVerifiedSave(m_editBase);
            m_saveNotice->showMessage(tr("Saved."), NoticeBanner::Tone::Positive);
            QTimer::singleShot(5000, m_saveNotice, [notice = m_saveNotice, this] {
                if (notice->text() == tr("Saved."))
                    notice->hide();
            });
        } else {
            m_saveNotice->showMessage(outcome.userMessage(), NoticeBanner::Tone::Info,
                                      outcome.error ? outcome.error->longText() : QString());
        }
        const bool stillSame = m_editor->text() == text;
        leaveEditing();
        if (outcome.saved) {
            setHead(outcome.saved);
            m_headKnown = true;
        }
        render();
        if (!stillSame)
            qCWarning(lcCanvasPane) << "editor changed while saving";
        setSaveState(outcome.kind == Kind::SavedVerified ? tr("Saved") : tr("Saved (unverified)"));
        break;
    }
    case Kind::Conflict:
        m_saveNotice->showMessage(outcome.userMessage(), NoticeBanner::Tone::Warning,
                                  outcome.error ? outcome.error->detail : QString());
        m_saveNotice->setActionVisible(QStringLiteral("Merge"), true);
        setSaveState(tr("Not saved: conflict"));
        openMerge(outcome.base, outcome.base ? outcome.base->content : m_baseText, m_editor->text(),
                  outcome.theirs, true, false);
        break;
    case Kind::Superseded:
        // Ours is durable in history but not current: show what is current and offer the merge.
        m_saveNotice->showMessage(outcome.userMessage(), NoticeBanner::Tone::Warning);
        m_saveNotice->setActionVisible(QStringLiteral("Merge"), true);
        leaveEditing();
        if (outcome.head) {
            setHead(outcome.head);
            m_headKnown = true;
        }
        render();
        setSaveState(tr("Saved, but superseded"));
        break;
    case Kind::AlreadyCurrent:
        leaveEditing();
        render();
        break;
    case Kind::OutcomeUnknown:
        m_saveNotice->showMessage(outcome.userMessage(), NoticeBanner::Tone::Warning,
                                  outcome.error ? outcome.error->longText() : QString());
        m_saveNotice->setActionVisible(QStringLiteral("Retry"), true);
        setSaveState(tr("Save outcome unknown"));
        break;
    case Kind::Error:
        if (outcome.error) {
            showRelayError(*outcome.error, m_saveNotice);
            emit relayProblem(*outcome.error);
        } else {
            m_saveNotice->showMessage(outcome.userMessage(), NoticeBanner::Tone::Error);
        }
        m_saveNotice->setActionVisible(QStringLiteral("Retry"),
                                       outcome.error && outcome.error->isUnreachable());
        setSaveState(tr("Not saved"));
        break;
    }
    updateHeader();
    emit saveSettled(outcome);
}

void CanvasPane::openMerge(const std::optional<canvas::CanvasRevision> &base,
                           const QString &baseText, const QString &mine,
                           const std::optional<canvas::CanvasRevision> &theirs, bool saveAfter,
                           bool startEditing)
{
    Q_UNUSED(base);
    ConflictDialog::Input input;
    input.baseText = baseText;
    input.mineText = mine;
    input.theirsText = theirs ? theirs->content : QString();
    input.theirsAuthor = theirs ? authorName(theirs->author) : tr("Someone");
    input.theirsTime = theirs ? UiFormat::revisionTime(theirs->createdAt) : tr("now");
    input.acceptLabel = saveAfter ? tr("Save merge") : tr("Use merge");
    auto *dialog = new ConflictDialog(std::move(input), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const quint64 generation = m_generation;
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, theirs, saveAfter, startEditing, generation] {
                if (generation != m_generation)
                    return;
                const ConflictDialog::Resolution resolution = dialog->resolution();
                const QString result = dialog->resultText();
                if (startEditing || !m_editing) {
                    // From a superseded save: edit from the current head with the merged text.
                    enterEditing(theirs, theirs ? theirs->content : QString());
                } else {
                    // Theirs becomes the base: the next save is a compare-and-swap against it.
                    m_editBase = theirs;
                    m_baseText = theirs ? theirs->content : QString();
                }
                m_loadingEditor = true;
                m_editor->replaceText(result); // undoable: Ctrl+Z brings my text back
                m_loadingEditor = false;
                onEditorChanged();
                m_liveTheirs.reset();
                m_liveChange->hide();
                m_saveNotice->hide();
                if (theirs)
                    setHead(theirs);
                updateHeader();
                if (saveAfter && resolution != ConflictDialog::Resolution::TakeTheirs
                    && result != m_baseText)
                    runSave(result);
                else
                    setSaveState(result == m_baseText ? tr("No changes") : tr("Merged — unsaved"));
            });
    dialog->open();
}

void CanvasPane::onLiveChange(const QString &channel, const canvas::CanvasRevision &revision)
{
    if (channel.compare(m_channel.id, Qt::CaseInsensitive) != 0)
        return;
    const bool own = m_ownRevisions.contains(revision.eventId.toLower());
    if (!sortsAhead(revision, m_head))
        return; // an echo of what we show, or an older revision arriving late
    if (own && m_editing)
        return;
    if (m_editing) {
        m_liveTheirs = revision;
        m_liveChange->showMessage(
            tr("Changed by %1").arg(authorName(revision.author)), NoticeBanner::Tone::Info,
            tr("%1 saved a new revision at %2 while you were editing. Reload shows it "
               "(your text stays as a draft); Merge combines it with your edit.")
                .arg(authorName(revision.author), UiFormat::revisionTime(revision.createdAt)));
        return;
    }
    // Not editing: refresh silently.
    setHead(revision);
    m_headKnown = true;
    render();
}

void CanvasPane::offerDrafts()
{
    if (m_editing || m_channel.id.isEmpty() || !m_channel.canEditCanvas())
        return;
    m_offeredDraft = m_drafts->draftToOffer(m_head);
    if (const auto &draft = m_offeredDraft) {
        m_draftBanner->showMessage(
            tr("You have an unsaved draft of this canvas from %1.")
                .arg(UiFormat::revisionTime(draft->savedAt.toSecsSinceEpoch())),
            NoticeBanner::Tone::Warning,
            draft->key.baseRevision
                    == (m_head ? m_head->eventId : QString::fromLatin1(canvas::kExpectedNone))
                ? tr("It was started from the current revision.")
                : tr("It was started from an older revision; saving it will offer a merge."));
        return;
    }
    m_draftBanner->hide();
}

void CanvasPane::restoreDraft(canvas::Draft draft)
{
    m_draftBanner->hide();
    m_offeredDraft.reset();
    const QString baseId = draft.key.baseRevision;
    if (baseId == QLatin1String(canvas::kExpectedNone)) {
        enterEditing(std::nullopt, draft.content);
        return;
    }
    if (m_head && m_head->hasId(baseId)) {
        enterEditing(m_head, draft.content);
        return;
    }
    // The draft's base is an older revision: fetch it so the save is a CAS against it (and the
    // conflict dialog can merge three ways).
    const quint64 generation = m_generation;
    QCoro::connect(
        m_services.canvas->revision(m_channel.id, baseId), this,
        [this, generation, draft](client::Result<std::optional<canvas::CanvasRevision>> base) {
            if (generation != m_generation || m_editing)
                return;
            if (!base) {
                showRelayError(base.error(), m_loadError);
                m_offeredDraft = draft;
                m_draftBanner->show();
                return;
            }
            enterEditing(base.value(), draft.content);
        });
}

bool CanvasPane::cancel()
{
    if (m_discardConfirm->isVisible()) {
        m_discardConfirm->hide();
        m_editor->editor()->setFocus();
        return true;
    }
    if (m_editing) {
        if (m_saving)
            return false;
        if (hasUnsavedChanges()) {
            m_discardConfirm->showMessage(
                tr("Discard your unsaved changes? The autosaved draft is deleted too."),
                NoticeBanner::Tone::Warning);
            m_discardConfirm->action(QStringLiteral("Keep"))->setFocus();
            return true;
        }
        m_drafts->discard(m_editBase);
        leaveEditing();
        render();
        return true;
    }
    for (NoticeBanner *banner : {m_saveNotice, m_liveChange, m_loadError, m_draftBanner}) {
        if (banner->isVisible()) {
            banner->hide();
            return true;
        }
    }
    return false;
}

void CanvasPane::showRelayError(const client::RelayError &error, NoticeBanner *banner)
{
    const bool auth = error.kind == client::RelayError::Kind::Auth;
    QString text = error.shortText();
    QString details = error.longText();
    if (auth) {
        text = tr("The relay refused this identity: %1")
                   .arg(error.message.isEmpty() ? error.detail : error.message);
        details =
            tr("Check that the relay URL in Settings is the address the relay advertises, and that "
               "Identity holds the key this relay knows.");
    } else if (error.kind == client::RelayError::Kind::NotFound) {
        details = tr("Check the relay URL in Settings.");
    }
    banner->showMessage(auth ? text + QStringLiteral(" ") + details : text,
                        NoticeBanner::Tone::Error, details);
    banner->setActionVisible(QStringLiteral("Settings"),
                             auth || error.isUnreachable()
                                 || error.kind == client::RelayError::Kind::NotFound);
    banner->setActionVisible(QStringLiteral("Identity"), auth);
    banner->setActionVisible(QStringLiteral("Retry"),
                             banner == m_loadError || error.isUnreachable());
}

void CanvasPane::setSaveState(const QString &state)
{
    emit saveStateChanged(state);
}

} // namespace buzz::ui
