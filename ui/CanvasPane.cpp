#include "ui/CanvasPane.h"

#include "canvas/CanvasWatch.h"
#include "canvas/ProfileCache.h"
#include "ui/CanvasDisplay.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasHeader.h"
#include "ui/ChannelAccessNotice.h"
#include "ui/ConflictDialog.h"
#include "ui/FindBar.h"
#include "ui/LiveChangeNotice.h"
#include "ui/NoticeBanner.h"
#include "ui/OutcomePresenter.h"
#include "ui/PresenceBar.h"
#include "ui/SaveNotice.h"
#include "ui/UiFormat.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace buzz::ui {

using Kind = canvas::SaveOutcome::Kind;
using State = canvas::CanvasSession::State;

CanvasPane::CanvasPane(const UiServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_header(new CanvasHeader(this))
    , m_loadError(new NoticeBanner(QStringLiteral("loadErrorBanner"), this))
    , m_readOnly(new ChannelAccessNotice(this))
    , m_saveNotice(new SaveNotice(this))
    , m_liveChange(new NoticeBanner(QStringLiteral("liveChangeBanner"), this))
    , m_draftBanner(new NoticeBanner(QStringLiteral("draftBanner"), this))
    , m_discardConfirm(addConfirmBanner(QStringLiteral("discardConfirmBanner"),
                                        QStringLiteral("Discard"), tr("&Discard changes"),
                                        tr("&Keep editing")))
    , m_reloadConfirm(addConfirmBanner(QStringLiteral("reloadConfirmBanner"),
                                       QStringLiteral("Reload"), tr("&Show latest"),
                                       tr("&Keep editing")))
    , m_draftDiscardConfirm(addConfirmBanner(QStringLiteral("draftDiscardConfirmBanner"),
                                             QStringLiteral("Discard"), tr("&Delete draft"),
                                             tr("&Keep draft")))
    , m_editor(new CanvasEditor(this))
    , m_display(new CanvasDisplay(m_editor, this)) // after m_editor: it shows it as a page
{
    setObjectName(QStringLiteral("canvasPane"));

    connect(m_header, &CanvasHeader::editClicked, this, &CanvasPane::startEditing);
    connect(m_header, &CanvasHeader::saveClicked, this, &CanvasPane::save);
    connect(m_header, &CanvasHeader::cancelClicked, this, &CanvasPane::cancel);

    const auto onClick = [this](NoticeBanner *banner, const QString &suffix, auto slot) {
        connect(banner->action(suffix), &QPushButton::clicked, this, slot);
    };
    // Which notice is which, in their buttons' accessible names (NoticeBanner::setPurpose).
    m_loadError->setPurpose(tr("loading notice"));
    m_liveChange->setPurpose(tr("live change notice"));
    m_draftBanner->setPurpose(tr("draft notice"));
    m_discardConfirm->setPurpose(tr("discard question"));
    m_reloadConfirm->setPurpose(tr("reload question"));
    m_draftDiscardConfirm->setPurpose(tr("draft deletion question"));
    m_loadError->addAction(QStringLiteral("Retry"), tr("&Retry"));
    m_loadError->addAction(QStringLiteral("Settings"), tr("Settings…"));
    m_loadError->addAction(QStringLiteral("Identity"), tr("Identity…"));
    onClick(m_loadError, QStringLiteral("Retry"), [this] { reload(); });
    onClick(m_loadError, QStringLiteral("Settings"), [this] { emit settingsRequested(); });
    onClick(m_loadError, QStringLiteral("Identity"), [this] { emit identityRequested(); });

    connect(m_readOnly, &ChannelAccessNotice::joinClicked, this,
            [this] { emit joinRequested(m_channel.id); });

    onClick(m_saveNotice, QStringLiteral("Merge"), [this] {
        if (const auto offer = m_session ? m_session->mergeOffer() : std::nullopt)
            openMerge(*offer, true);
    });
    onClick(m_saveNotice, QStringLiteral("Retry"), [this] {
        if (m_session)
            m_session->retry();
    });

    m_liveChange->addAction(QStringLiteral("Reload"), tr("&Reload"));
    m_liveChange->addAction(QStringLiteral("Merge"), tr("&Merge…"));
    onClick(m_liveChange, QStringLiteral("Reload"), [this] { askReload(); });
    onClick(m_liveChange, QStringLiteral("Merge"), [this] {
        if (!m_session || !m_session->liveChange())
            return;
        openMerge({m_session->editBase(), m_session->baseText(), m_session->workingText(),
                   m_session->liveChange()},
                  false);
    });
    onClick(m_reloadConfirm, QStringLiteral("Reload"), [this] {
        m_reloadConfirm->hide();
        if (m_session)
            m_session->leaveEditing(); // the text stays as a draft, offered right below
        offerDrafts();
    });

    m_draftBanner->addAction(QStringLiteral("Restore"), tr("Restore &draft"));
    m_draftBanner->addAction(QStringLiteral("Discard"), tr("Discard…"));
    onClick(m_draftBanner, QStringLiteral("Restore"), [this] {
        if (m_session && m_offeredDraft) {
            m_draftBanner->hide();
            m_draftDiscardConfirm->hide();
            m_session->restoreDraft(*m_offeredDraft);
        }
    });
    onClick(m_draftBanner, QStringLiteral("Discard"), [this] {
        m_draftDiscardConfirm->showMessage(
            tr("Delete this draft? Its text is not saved anywhere else."),
            NoticeBanner::Tone::Warning);
        m_draftDiscardConfirm->action(QStringLiteral("Keep"))->setFocus();
    });
    onClick(m_draftDiscardConfirm, QStringLiteral("Discard"), [this] {
        m_draftDiscardConfirm->hide();
        if (m_session && m_offeredDraft)
            m_session->discardDraft(m_offeredDraft->key);
        m_offeredDraft.reset();
        m_draftBanner->hide();
        offerDrafts(); // there may be an older one
    });

    onClick(m_discardConfirm, QStringLiteral("Discard"), [this] {
        m_discardConfirm->hide();
        if (m_session)
            m_session->discardEdit();
    });

    connect(m_editor, &CanvasEditor::textEdited, this, [this] {
        if (m_session && !m_applyingSessionText)
            m_session->textEdited(); // no copy of the text: the session pulls it when needed
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_header);
    layout->addWidget(new PresenceBar(m_services, this)); // below the header: who else is here
    for (NoticeBanner *banner : std::initializer_list<NoticeBanner *> {
             new LiveChangeNotice(m_services, this, m_display), m_loadError, m_readOnly,
             m_liveChange, m_reloadConfirm, m_draftBanner, m_draftDiscardConfirm, m_saveNotice,
             m_discardConfirm})
        layout->addWidget(banner);
    layout->addWidget(m_display, 1);

    if (m_services.profiles) {
        connect(m_services.profiles, &canvas::ProfileCache::profilesUpdated, this,
                &CanvasPane::updateHeader);
    }
    m_display->showState(tr("Choose a channel to see its canvas."));
    updateHeader();
}

CanvasPane::~CanvasPane()
{
    // The session outlives the editor by a moment: it keeps the text it last showed.
    if (m_session)
        m_session->setTextSource({});
}

NoticeBanner *CanvasPane::addConfirmBanner(const QString &name, const QString &confirmSuffix,
                                           const QString &confirmLabel, const QString &keepLabel)
{
    auto *banner = new NoticeBanner(name, this);
    banner->addAction(confirmSuffix, confirmLabel);
    banner->addAction(QStringLiteral("Keep"), keepLabel);
    connect(banner->action(QStringLiteral("Keep")), &QPushButton::clicked, this, [this, banner] {
        banner->hide();
        if (isEditing())
            m_editor->textEdit()->setFocus();
    });
    return banner;
}

QString CanvasPane::authorName(const QString &pubkey) const
{
    return UiFormat::personName(m_services.profiles, pubkey);
}

void CanvasPane::focusCanvas()
{
    m_display->focusContent();
}

void CanvasPane::flushDraft()
{
    if (m_session)
        m_session->flushDraft();
}

void CanvasPane::openChannel(const canvas::ChannelInfo &channel)
{
    if (m_session) {
        // The previous edit stays recoverable: its session writes the draft as it closes, and
        // every answer still on its way for it is dropped with it.
        m_session->setTextSource({});
        m_session->disconnect(this);
        delete m_session;
        m_session = nullptr;
    }
    m_channel = channel;
    m_offeredDraft.reset();
    for (NoticeBanner *banner :
         {m_loadError, static_cast<NoticeBanner *>(m_saveNotice), m_liveChange, m_draftBanner,
          m_discardConfirm, m_reloadConfirm, m_draftDiscardConfirm})
        banner->hide();
    canvas::DraftScope drafts {m_services.drafts, m_services.draftRelayKey,
                               m_services.draftCommunity};
    m_session = new canvas::CanvasSession(m_services.canvas, m_services.canvasWatch, channel.id,
                                          drafts, this);
    m_session->setTextSource([editor = m_editor] { return editor->text(); });
    m_editor->loadText(QString()); // no undo into another channel's text (no session edits yet)
    connectSession();
    m_saveNotice->follow(m_session);
    m_editor->setReadOnly(false);
    emit sessionOpened(m_session);
    emit editingChanged(false);
    updateSaveState();
    reload();
}

void CanvasPane::connectSession()
{
    using Session = canvas::CanvasSession;
    connect(m_session, &Session::headChanged, this, [this] {
        if (const auto &head = m_session->head(); head && m_services.profiles)
            m_services.profiles->request({head->author});
        render();
    });
    connect(m_session, &Session::loadFinished, this, &CanvasPane::onLoadFinished);
    connect(m_session, &Session::editingChanged, this, &CanvasPane::onEditingChanged);
    connect(m_session, &Session::editedChanged, this, &CanvasPane::updateSaveState);
    connect(m_session, &Session::stateChanged, this, [this] {
        updateHeader();
        updateSaveState();
    });
    connect(m_session, &Session::workingTextReplaced, this, &CanvasPane::onWorkingTextReplaced);
    connect(m_session, &Session::settled, this, &CanvasPane::onSettled);
    connect(m_session, &Session::liveChangeArrived, this, &CanvasPane::onLiveChange);
    connect(m_session, &Session::draftFailed, this, &CanvasPane::onDraftFailed);
    connect(m_session->drafts(), &canvas::CanvasDrafts::autosavedChanged, this,
            &CanvasPane::updateSaveState);
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
    if (!m_session)
        return;
    m_session->load();
    if (!m_session->isHeadKnown() && !m_session->isEditing())
        m_display->showState(tr("Loading canvas…"));
    updateHeader();
}

void CanvasPane::onLoadFinished(bool ok)
{
    if (!ok) {
        const client::RelayError error = *m_session->loadError();
        // A failed refresh never unmounts what is shown or clears notices
        // (docs/buzz-protocol.md §Upstream desktop behaviour). An outage is worded once, by the
        // connection banner: the canvas waits for the relay (re-read when it is back).
        const bool outage = OutcomePresenter::isOutage(error, m_services.connection);
        if (!m_session->isHeadKnown() && !m_session->isEditing())
            m_display->showState(outage ? tr("Waiting for the relay…") : error.shortText());
        if (!outage)
            showRelayError(error, m_loadError);
        updateHeader();
        emit relayProblem(error);
        emit canvasShown(m_channel.id);
        return;
    }
    m_loadError->hide();
    render();
    emit canvasShown(m_channel.id);
    if (!m_session->isEditing())
        offerDrafts();
}

void CanvasPane::render()
{
    if (!m_session)
        return;
    if (m_session->isEditing())
        m_display->showEditor();
    else if (const auto &head = m_session->head())
        m_display->showContent(head->content);
    else if (m_session->isHeadKnown())
        m_display->showState(tr("No canvas set for this channel."));
    updateHeader();
}

void CanvasPane::updateHeader()
{
    CanvasHeader::State state;
    state.channelId = m_channel.id;
    state.channelName = m_channel.name;
    state.channelAbout = m_channel.about;
    state.canEdit = m_channel.canEditCanvas();
    if (m_session) {
        state.head = m_session->head();
        state.headAuthorName = state.head ? authorName(state.head->author) : QString();
        state.headByYou =
            state.head && m_services.profiles && m_services.profiles->isSelf(state.head->author);
        state.headAuthorToolTip = state.head
            ? UiFormat::personToolTip(m_services.profiles, state.head->author)
            : QString();
        state.editBase = m_session->editBase();
        state.headKnown = m_session->isHeadKnown();
        state.loading = m_session->isLoading();
        state.editing = m_session->isEditing();
        state.saving = m_session->state() == State::Saving;
        if (m_session->state() == State::Restoring)
            state.editBlockedReason = tr("Restoring a revision…");
        else if (!state.editing && m_session->state() == State::OutcomeUnknown)
            state.editBlockedReason = tr("Retry the restore in History first.");
    }
    m_header->setState(state);
    m_readOnly->showFor(m_channel);
}

void CanvasPane::updateSaveState()
{
    if (!m_session) {
        emit saveStateChanged(QString());
        return;
    }
    // "Draft autosaved" only while it is true: everything typed is on disk.
    const auto autosaved = m_session->drafts()->autosavedAt();
    emit saveStateChanged(OutcomePresenter::saveState(
        *m_session,
        autosaved ? autosaved->time().toString(QStringLiteral("HH:mm:ss")) : QString()));
}

void CanvasPane::toggleEditing()
{
    if (isEditing())
        cancel();
    else
        startEditing();
}

void CanvasPane::startEditing()
{
    if (isEditing()) {
        m_editor->textEdit()->setFocus();
        return;
    }
    if (m_session && m_channel.canEditCanvas())
        m_session->startEditing();
}

void CanvasPane::onEditingChanged(bool editing)
{
    m_discardConfirm->hide();
    m_reloadConfirm->hide();
    if (editing) {
        m_draftBanner->hide();
        m_draftDiscardConfirm->hide();
        m_offeredDraft.reset();
        m_editor->setReadOnly(false);
        m_display->showEditor();
        m_editor->textEdit()->setFocus();
    } else {
        m_liveChange->hide();
    }
    render();
    updateSaveState();
    emit editingChanged(editing);
}

void CanvasPane::onWorkingTextReplaced(const QString &text, bool undoable)
{
    m_applyingSessionText = true;
    if (undoable)
        m_editor->replaceText(text); // Ctrl+Z brings the previous text back
    else if (text != m_editor->text())
        m_editor->loadText(text);
    // else: editing again the text the editor already holds (the revision just saved): its undo
    // stack and cursor stay, so Ctrl+Z reaches back past the save, as in any editor.
    m_applyingSessionText = false;
}

void CanvasPane::save()
{
    if (!m_session || !m_channel.canEditCanvas())
        return;
    m_saveNotice->hide();
    m_discardConfirm->hide();
    // Focus on the Save button would fall to the channel filter as it is disabled: to the text.
    const QWidget *focus = QApplication::focusWidget();
    m_focusAfterSave = !focus || isAncestorOf(focus) || focus == window();
    if (isEditing() && focus && m_header->isAncestorOf(focus))
        m_editor->textEdit()->setFocus(Qt::OtherFocusReason);
    m_session->save(); // typing goes on while it is under way
}

void CanvasPane::onSettled(const canvas::CanvasSession::Settled &settled)
{
    render();
    updateSaveState();
    if (settled.operation != canvas::CanvasSession::Operation::Save)
        return; // restores are reported by the History panel
    if (std::exchange(m_focusAfterSave, false))
        focusCanvas();
    const auto offer = m_session->mergeOffer();
    m_saveNotice->showSettled(settled);
    if (settled.outcome.kind == Kind::Error && settled.outcome.error)
        emit relayProblem(*settled.outcome.error);
    if (settled.outcome.kind == Kind::Conflict && offer)
        openMerge(*offer, true);
}

void CanvasPane::openMerge(const canvas::CanvasSession::MergeOffer &offer, bool saveAfter)
{
    ConflictDialog::Input input;
    input.baseText = offer.baseText;
    input.mineText = offer.mine;
    input.theirsText = offer.theirs ? offer.theirs->content : QString();
    input.theirsAuthor = offer.theirs ? authorName(offer.theirs->author) : tr("Someone");
    input.theirsTime = offer.theirs ? UiFormat::revisionTime(offer.theirs->createdAt) : tr("now");
    input.acceptLabel = saveAfter ? tr("Save merge") : tr("Use merge");
    input.theirsToolTip = offer.theirs
        ? UiFormat::personToolTip(m_services.profiles, offer.theirs->author)
        : QString();
    auto *dialog = new ConflictDialog(std::move(input), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (offer.theirs && m_services.profiles) // a name seen for the first time arrives later
        connect(m_services.profiles, &canvas::ProfileCache::profilesUpdated, dialog,
                [this, dialog, author = offer.theirs->author] {
                    dialog->setTheirsAuthor(authorName(author),
                                            UiFormat::personToolTip(m_services.profiles, author));
                });
    // Whatever the answer, typing goes on in the canvas, not where focus was before the dialog.
    connect(dialog, &QDialog::finished, this, [this] {
        focusCanvas();
        QTimer::singleShot(0, this, &CanvasPane::focusCanvas); // after the window reactivates
    });
    // Bound to this session: a channel switch while the dialog is open drops its answer.
    connect(dialog, &QDialog::accepted, m_session, [this, dialog, offer, saveAfter] {
        const bool takeTheirs = dialog->resolution() == ConflictDialog::Resolution::TakeTheirs;
        m_liveChange->hide();
        m_saveNotice->hide();
        m_session->acceptMerge(offer.theirs, dialog->resultText(), saveAfter && !takeTheirs);
    });
    dialog->open();
}

void CanvasPane::onLiveChange(const canvas::CanvasRevision &revision)
{
    m_liveChange->showMessage(
        tr("Changed by %1").arg(authorName(revision.author)), NoticeBanner::Tone::Info,
        tr("%1 saved a new revision at %2 while you were editing. Reload shows it (you are asked "
           "first; your text stays as a draft); Merge combines it with your edit.")
            .arg(authorName(revision.author), UiFormat::revisionTime(revision.createdAt)));
}

void CanvasPane::askReload()
{
    if (!m_session)
        return;
    if (!m_session->hasUnsavedChanges()) {
        m_session->leaveEditing();
        return;
    }
    m_reloadConfirm->showMessage(tr("Leave editing and show the latest revision? "
                                    "Your text is kept as a draft you can "
                                    "restore."),
                                 NoticeBanner::Tone::Warning);
    m_reloadConfirm->action(QStringLiteral("Keep"))->setFocus();
}

void CanvasPane::offerDrafts()
{
    if (!m_session || m_session->isEditing() || !m_channel.canEditCanvas())
        return;
    m_offeredDraft = m_session->draftToOffer();
    if (const auto &draft = m_offeredDraft) {
        const auto &head = m_session->head();
        m_draftBanner->showMessage(
            tr("You have an unsaved draft of this canvas from %1.")
                .arg(UiFormat::revisionTime(draft->savedAt.toSecsSinceEpoch())),
            NoticeBanner::Tone::Warning,
            draft->key.baseRevision
                    == (head ? head->eventId : QString::fromLatin1(canvas::kExpectedNone))
                ? tr("It was started from the current revision.")
                : tr("It was started from an older revision; saving it will offer "
                     "a merge."));
        return;
    }
    m_draftBanner->hide();
}

void CanvasPane::onDraftFailed(const client::RelayError &error, const canvas::Draft &draft)
{
    // The draft stays on disk and on offer: nothing was read well enough to edit it safely.
    showRelayError(error, m_loadError);
    m_offeredDraft = draft;
    m_draftBanner->show();
}

bool CanvasPane::cancel()
{
    for (NoticeBanner *confirm : {m_discardConfirm, m_reloadConfirm, m_draftDiscardConfirm}) {
        if (confirm->isVisible()) {
            confirm->hide();
            if (isEditing())
                m_editor->textEdit()->setFocus();
            return true;
        }
    }
    // The find bar is the innermost thing open: Esc closes it first, wherever focus is (its own
    // fields handle Esc themselves; the text and the bar's buttons leave it to the window).
    if (m_editor->findBar()->isVisible()) {
        m_editor->findBar()->close();
        return true;
    }
    if (isEditing()) {
        if (m_session->isBusy())
            return false;
        if (m_session->hasUnsavedChanges()) {
            m_discardConfirm->showMessage(tr("Discard your unsaved changes? The "
                                             "autosaved draft is deleted too."),
                                          NoticeBanner::Tone::Warning);
            m_discardConfirm->action(QStringLiteral("Keep"))->setFocus();
            return true;
        }
        m_session->leaveEditing();
        return true;
    }
    for (NoticeBanner *banner :
         {static_cast<NoticeBanner *>(m_saveNotice), m_liveChange, m_loadError, m_draftBanner}) {
        if (banner->isVisible()) {
            banner->hide();
            return true;
        }
    }
    return false;
}

void CanvasPane::showRelayError(const client::RelayError &error, NoticeBanner *banner)
{
    const OutcomePresenter::Notice notice = OutcomePresenter::relayError(error);
    const bool auth = error.kind == client::RelayError::Kind::Auth;
    banner->showMessage(notice.text, notice.tone, notice.details);
    banner->setActionVisible(QStringLiteral("Settings"),
                             auth || error.isUnreachable()
                                 || error.kind == client::RelayError::Kind::NotFound);
    banner->setActionVisible(QStringLiteral("Identity"), auth);
    banner->setActionVisible(QStringLiteral("Retry"),
                             banner == m_loadError || error.isUnreachable());
}

} // namespace buzz::ui
