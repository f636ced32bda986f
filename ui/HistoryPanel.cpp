#include "ui/HistoryPanel.h"

#include "canvas/BlameService.h"
#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"
#include "canvas/ProfileCache.h"
#include "ui/Accessibility.h"
#include "ui/BlameView.h"
#include "ui/DiffView.h"
#include "ui/HistoryItemDelegate.h"
#include "ui/NoticeBanner.h"
#include "ui/OutcomePresenter.h"
#include "ui/RestoreDialog.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QCheckBox>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <qcoro/qcorotask.h>

namespace buzz::ui {

HistoryPanel::HistoryPanel(const UiServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_model(new HistoryModel(services.profiles, this))
    , m_status(new QLabel(this))
    , m_list(new QListView(this))
    , m_loadOlder(new QPushButton(tr("Load older"), this))
    , m_diff(new DiffView(this))
    , m_compareCurrent(new QCheckBox(tr("Compare with the &current canvas"), this))
    , m_blame(new BlameView(services.profiles, this))
    , m_details(new QTabWidget(this))
    , m_blameService(new canvas::BlameService(services.canvas, this))
    , m_restore(new QPushButton(tr("Restore this revision"), this))
    , m_notice(new NoticeBanner(QStringLiteral("historyNotice"), this))
{
    setObjectName(QStringLiteral("historyPanel"));
    m_status->setObjectName(QStringLiteral("historyStatusLabel"));
    m_status->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("historyList"));
    m_list->setAccessibleName(tr("Revisions, newest first"));
    m_list->setModel(m_model);
    m_list->setItemDelegate(new HistoryItemDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    m_loadOlder->setObjectName(QStringLiteral("loadOlderButton"));
    m_loadOlder->setAccessibleName(tr("Load older revisions"));
    m_restore->setObjectName(QStringLiteral("restoreButton"));
    m_restore->setAccessibleName(tr("Restore this revision"));
    m_restore->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    m_diff->setObjectName(QStringLiteral("historyDiffView"));
    m_compareCurrent->setObjectName(QStringLiteral("historyCompareCurrentCheck"));
    m_compareCurrent->setAccessibleName(tr("Compare with the current canvas"));
    m_compareCurrent->setToolTip(tr("Show what changed from this revision to the current canvas "
                                    "instead of the change this revision made"));
    m_blame->setObjectName(QStringLiteral("historyBlameView"));
    m_details->setObjectName(QStringLiteral("historyDetailTabs"));
    m_details->setAccessibleName(tr("Revision details"));
    connect(m_compareCurrent, &QCheckBox::toggled, this, &HistoryPanel::showSelectedDiff);
    connect(m_details, &QTabWidget::currentChanged, this, &HistoryPanel::showSelectedBlame);
    connect(m_blame, &BlameView::retryRequested, this, [this] {
        m_blamedId.clear();
        showSelectedBlame();
    });

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &HistoryPanel::onSelectionChanged);
    makeSelectionCurrent(m_list);
    connect(m_loadOlder, &QPushButton::clicked, this, &HistoryPanel::loadOlder);
    connect(m_restore, &QPushButton::clicked, this, &HistoryPanel::askRestore);
    m_notice->setPurpose(tr("History notice"));
    m_notice->addAction(QStringLiteral("Retry"), tr("&Retry"));
    connect(m_notice->action(QStringLiteral("Retry")), &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->retry();
    });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_status);
    topLayout->addWidget(m_list, 1);
    topLayout->addWidget(m_loadOlder);
    auto *change = new QWidget(m_details);
    change->setObjectName(QStringLiteral("historyChangePage"));
    change->setAccessibleName(tr("Change made by the selected revision"));
    auto *changeLayout = new QVBoxLayout(change);
    changeLayout->setContentsMargins(4, 4, 4, 4);
    changeLayout->addWidget(m_compareCurrent);
    changeLayout->addWidget(m_diff, 1);
    m_details->addTab(change, tr("C&hange"));
    m_details->addTab(m_blame, tr("&Blame"));
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_details, 1);
    bottomLayout->addWidget(m_notice);
    bottomLayout->addWidget(m_restore);
    auto *splitter = m_splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("historySplitter"));
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setChildrenCollapsible(false);
    // The diff is what a reader studies: it gets most of the height and never shrinks below a dozen
    // lines, the list keeps room for a few revisions.
    const int line = m_diff->fontMetrics().lineSpacing();
    m_diff->setMinimumHeight(12 * line);
    m_list->setMinimumHeight(4 * line);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(splitter);
    updateButtons();
}

namespace {
using State = canvas::CanvasSession::State;
} // namespace

void HistoryPanel::setSession(canvas::CanvasSession *session, bool canRestore)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    m_canRestore = canRestore;
    m_loading = false;
    m_model->clear();
    m_model->setSession(session);
    m_blameService->setChannel(session ? session->channel() : QString());
    m_diff->clear();
    m_blame->clear();
    m_blamedId.clear();
    m_readingParentId.clear();
    m_notice->hide();
    m_status->clear();
    m_stale = true;
    m_listedHeadId.clear();
    if (m_session) {
        using Session = canvas::CanvasSession;
        connect(m_session, &Session::stateChanged, this, &HistoryPanel::onSessionState);
        connect(m_session, &Session::settled, this, &HistoryPanel::onSettled);
        connect(m_session, &Session::headChanged, this, &HistoryPanel::onHeadChanged);
        connect(m_session, &Session::editingChanged, this, &HistoryPanel::updateButtons);
        connect(m_session, &Session::editedChanged, this, &HistoryPanel::updateButtons);
        if (isVisible())
            reload();
    }
    updateButtons();
}

void HistoryPanel::setCanRestore(bool canRestore)
{
    m_canRestore = canRestore;
    updateButtons();
}

bool HistoryPanel::isRestoring() const
{
    return m_session && m_session->state() == State::Restoring;
}

void HistoryPanel::onHeadChanged()
{
    // A new head: revisions of others may have landed before it, so the list is re-read (the
    // session's own revisions stay listed meanwhile, whatever a lagging replica answers).
    const auto &head = m_session->head();
    const QString headId = head ? head->eventId.toLower() : QString();
    if (headId != m_listedHeadId) {
        m_listedHeadId = headId;
        m_stale = true;
        if (isVisible())
            reload();
    }
    showSelectedDiff();
    updateButtons();
}

void HistoryPanel::divideSplitOnce()
{
    // QSplitter starts from the size hints, which leave the list most of the height and the diff a
    // few lines: the first time the panel has a real height, the diff gets 3/5 of it.
    const QMargins margins = layout()->contentsMargins();
    const int total = height() - margins.top() - margins.bottom();
    if (m_splitSized || !isVisible() || total < 100)
        return;
    m_splitSized = true;
    m_splitter->setSizes({total * 2 / 5, total - total * 2 / 5});
}

void HistoryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    divideSplitOnce();
}

void HistoryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    divideSplitOnce();
    if (m_stale && m_session)
        reload();
}

void HistoryPanel::reload()
{
    if (!m_session)
        return;
    if (m_loading) {
        m_stale = true;
        return;
    }
    m_stale = false;
    m_loading = true;
    const bool hadRows = m_model->rowCount() > 0;
    if (!hadRows)
        m_status->setText(tr("Loading history..."));
    const QString selectedId = selectedRevision() ? selectedRevision()->eventId : QString();
    // Bound to the session: an answer for a channel that was closed meanwhile is dropped.
    QPointer<HistoryPanel> self(this);
    QCoro::connect(m_services.canvas->history(m_session->channel(), std::nullopt, m_pageSize),
                   m_session.data(),
                   [self, hadRows, selectedId](client::Result<canvas::HistoryPage> page) {
                       if (self)
                           self->onFirstPage(page, hadRows, selectedId);
                   });
    updateButtons();
}

void HistoryPanel::onFirstPage(const client::Result<canvas::HistoryPage> &page, bool hadRows,
                               const QString &selectedId)
{
    m_loading = false;
    if (!page) {
        m_status->setText(hadRows ? tr("Couldn't refresh history — showing last known revisions.")
                              : OutcomePresenter::isOutage(page.error(), m_services.connection)
                              ? tr("Waiting for the relay…")
                              : page.error().shortText());
        m_status->setToolTip(page.error().longText());
        updateButtons();
        return;
    }
    m_model->setFirstPage(*page);
    // A revision newer than the session's head on top (a live event that never came): the session
    // adopts it, so the header, the canvas and the "Current" badge agree. The list shows it
    // already: its head change needs no second read.
    const auto &head = m_session->head();
    if (!page->revisions.empty() && (!head || page->revisions.front().isNewerThan(*head))) {
        m_listedHeadId = page->revisions.front().eventId.toLower();
        m_services.canvasWatch->noteRevision(m_session->channel(), page->revisions.front());
    }
    m_status->setText(m_model->rowCount() == 0 ? tr("No revisions yet.") : QString());
    m_status->setToolTip({});
    const int row = m_model->rowOf(selectedId);
    if (row >= 0) {
        // The same revision selected again after the reload: not the user choosing another row,
        // so the outcome on screen ("Restored.") stays.
        m_reselecting = true;
        m_list->setCurrentIndex(m_model->index(row));
        m_reselecting = false;
    }
    updateButtons();
    emit historyLoaded(m_model->rowCount());
    if (m_stale)
        reload(); // something changed while this page was on its way
}

void HistoryPanel::loadOlder()
{
    const auto cursor = m_model->nextCursor();
    if (!cursor || m_loading || !m_session)
        return;
    m_loading = true;
    m_loadOlder->setText(tr("Loading..."));
    updateButtons();
    QPointer<HistoryPanel> self(this);
    QCoro::connect(m_services.canvas->history(m_session->channel(), cursor, m_pageSize),
                   m_session.data(), [self](client::Result<canvas::HistoryPage> page) {
                       if (!self)
                           return;
                       self->m_loading = false;
                       self->m_loadOlder->setText(tr("Load older"));
                       if (!page) {
                           self->m_status->setText(page.error().shortText());
                           self->m_status->setToolTip(page.error().longText());
                       } else {
                           self->m_model->appendPage(*page);
                           // nextCursor is unset: Load older goes, and this says why.
                           if (page->stalled)
                               self->m_status->setText(
                                   tr("The relay sent the same revisions again instead of older "
                                      "ones, so older history can't be loaded from it."));
                       }
                       self->updateButtons();
                       emit self->historyLoaded(self->m_model->rowCount());
                   });
}

const canvas::CanvasRevision *HistoryPanel::selectedRevision() const
{
    return m_model->revisionAt(m_list->currentIndex().row());
}

void HistoryPanel::onSelectionChanged()
{
    // Selecting another row clears the previous outcome (desktop behaviour), unless it still
    // offers a Retry.
    if (!m_reselecting && !isRestoring()
        && !(m_session && m_session->state() == State::OutcomeUnknown))
        m_notice->hide();
    showSelectedDiff();
    updateButtons();
}

void HistoryPanel::showSelectedDiff()
{
    showSelectedBlame();
    const int row = m_list->currentIndex().row();
    const canvas::CanvasRevision *revision = m_model->revisionAt(row);
    if (!revision) {
        m_diff->clear();
        return;
    }
    if (m_compareCurrent->isChecked()) {
        const auto &head = m_session ? m_session->head() : std::nullopt;
        m_diff->showComparison(revision->content, head ? head->content : QString());
        return;
    }
    std::optional<QString> unread;
    if (const auto parent = m_model->parentOf(row, &unread)) {
        m_diff->showChange(parent->content, revision->content, false);
    } else if (!unread) {
        m_diff->showChange(QString(), revision->content, true);
    } else if (unread->isEmpty()) {
        m_diff->showMessage(tr("The revision this one replaced is on an older page: load older "
                               "revisions to see its change."));
    } else {
        m_diff->showMessage(tr("Reading the revision this one replaced…"));
        readParent(*unread);
    }
}

void HistoryPanel::readParent(const QString &parentId)
{
    if (!m_session || m_readingParentId == parentId)
        return;
    m_readingParentId = parentId;
    QPointer<HistoryPanel> self(this);
    // A display read like the pages (verified by the bridge); bound to the session.
    QCoro::connect(m_services.canvas->revision(m_session->channel(), parentId), m_session.data(),
                   [self, parentId](client::Result<std::optional<canvas::CanvasRevision>> read) {
                       if (!self || self->m_readingParentId != parentId)
                           return;
                       self->m_readingParentId.clear();
                       if (read && *read) {
                           self->m_model->addParent(**read);
                           self->showSelectedDiff();
                       } else {
                           self->m_diff->showMessage(
                               read ? tr("The relay does not have the revision this one replaced "
                                         "(yet), so its own change can't be shown.")
                                    : read.error().shortText());
                       }
                   });
}

void HistoryPanel::showSelectedBlame()
{
    if (m_details->currentWidget() != m_blame || !m_session)
        return;
    // The selected revision, or the current canvas when none is selected.
    const canvas::CanvasRevision *selected = selectedRevision();
    const auto &head = m_session->head();
    if (!selected && !head) {
        m_blame->clear();
        m_blamedId.clear();
        return;
    }
    const canvas::CanvasRevision target = selected ? *selected : *head;
    if (target.hasId(m_blamedId))
        return;
    m_blamedId = target.eventId.toLower();
    const quint64 request = ++m_blameRequest;
    const bool yours = m_services.profiles && target.author == m_services.profiles->selfPubkey();
    const QString when = UiFormat::revisionTime(target.createdAt);
    const QString of = yours
        ? tr("your revision from %1").arg(when)
        : tr("%1's revision from %2")
              .arg(UiFormat::personName(m_services.profiles, target.author), when);
    m_blame->showLoading();
    QPointer<HistoryPanel> self(this);
    QCoro::connect(m_blameService->blame(target), m_session.data(),
                   [self, request, of](client::Result<canvas::Blame> blame) {
                       if (!self || self->m_blameRequest != request)
                           return;
                       if (blame) {
                           self->m_blame->showBlame(*blame, of);
                       } else {
                           self->m_blamedId.clear(); // another try reads it again
                           self->m_blame->showMessage(blame.error().shortText(), true);
                       }
                   });
}

void HistoryPanel::updateButtons()
{
    const canvas::CanvasRevision *revision = selectedRevision();
    const auto head = m_session ? m_session->head() : std::nullopt;
    const bool isCurrent = revision && head && revision->hasId(head->eventId);
    const bool restoring = isRestoring();
    // An editor left open after a save, with nothing typed since, does not block a restore.
    const bool editing = m_session && m_session->isEditing() && m_session->isEditedSinceBase();
    const bool unsettled =
        m_session && !m_session->isEditing() && m_session->state() == State::OutcomeUnknown;
    m_restore->setVisible(m_canRestore);
    m_restore->setEnabled(m_canRestore && revision && !isCurrent && !restoring && !editing
                          && !unsettled && m_session && m_session->canRestore());
    m_restore->setText(restoring ? tr("Restoring...") : tr("Restore this revision"));
    m_restore->setToolTip(isCurrent     ? tr("This revision is the current canvas.")
                              : editing ? tr("Leave editing to restore a revision.")
                              : unsettled
                              ? tr("Retry the last restore first: it may have reached the relay.")
                              : QString());
    m_list->setEnabled(!restoring);
    m_loadOlder->setVisible(m_model->hasMore() || m_loadOlder->text() != tr("Load older"));
    m_loadOlder->setEnabled(m_model->hasMore() && !m_loading && !restoring);
}

void HistoryPanel::askRestore()
{
    const canvas::CanvasRevision *revision = selectedRevision();
    if (!revision || !m_session || !m_session->canRestore())
        return;
    const canvas::CanvasRevision target = *revision;
    const QString author = UiFormat::personName(m_services.profiles, target.author);
    // The head is frozen now, when the question is asked, not when it is answered.
    const auto &head = m_session->head();
    std::optional<QString> frozen = head ? std::optional<QString>(head->eventId) : std::nullopt;
    auto *dialog =
        new RestoreDialog(author, UiFormat::revisionTime(target.createdAt), frozen, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    canvas::CanvasSession *session = m_session;
    connect(dialog, &QDialog::accepted, session, [this, session, dialog, target] {
        m_notice->hide();
        session->restore(target.eventId, dialog->frozenHeadId());
    });
    dialog->open();
}

void HistoryPanel::onSessionState()
{
    if (isRestoring())
        m_notice->hide();
    updateButtons();
}

void HistoryPanel::onSettled(const canvas::CanvasSession::Settled &settled)
{
    // Every settled write may have moved the head: the list is re-read.
    if (settled.outcome.kind != canvas::SaveOutcome::Kind::Error) {
        m_stale = true;
        reload();
    }
    if (settled.operation != canvas::CanvasSession::Operation::Restore)
        return;
    const OutcomePresenter::Notice notice =
        OutcomePresenter::notice(settled, m_session->canRetry(), false);
    m_notice->showMessage(notice.text, notice.tone, notice.details);
    m_notice->setActionVisible(QStringLiteral("Retry"), notice.offerRetry);
    showSelectedDiff();
    updateButtons();
    m_notice->setFocus();
}

} // namespace buzz::ui
