#include "ui/HistoryPanel.h"

#include "canvas/CanvasService.h"
#include "canvas/ProfileCache.h"
#include "ui/DiffView.h"
#include "ui/HistoryItemDelegate.h"
#include "ui/NoticeBanner.h"
#include "ui/RestoreDialog.h"
#include "ui/UiFormat.h"
#include "ui/models/HistoryModel.h"

#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
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

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &HistoryPanel::onSelectionChanged);
    connect(m_loadOlder, &QPushButton::clicked, this, &HistoryPanel::loadOlder);
    connect(m_restore, &QPushButton::clicked, this, &HistoryPanel::askRestore);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_status);
    topLayout->addWidget(m_list, 1);
    topLayout->addWidget(m_loadOlder);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_diff, 1);
    bottomLayout->addWidget(m_notice);
    bottomLayout->addWidget(m_restore);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(splitter);
    updateButtons();
}

void HistoryPanel::setChannel(const QString &channel, bool canRestore)
{
    ++m_generation;
    m_channel = channel;
    m_canRestore = canRestore;
    m_current.reset();
    m_restoring = false;
    m_loading = false;
    m_model->clear();
    m_model->setCurrentHeadId({});
    m_diff->clear();
    m_notice->hide();
    m_status->clear();
    m_restore->setText(tr("Restore this revision"));
    m_list->setEnabled(true);
    m_stale = true;
    if (isVisible())
        reload();
    updateButtons();
}

void HistoryPanel::setCanRestore(bool canRestore)
{
    m_canRestore = canRestore;
    updateButtons();
}

void HistoryPanel::setCurrent(const std::optional<canvas::CanvasRevision> &head)
{
    const bool moved =
        (head ? head->eventId : QString()) != (m_current ? m_current->eventId : QString());
    m_current = head;
    m_model->setCurrentHeadId(head ? head->eventId : QString());
    if (moved && m_model->rowOf(head ? head->eventId : QString()) < 0 && head)
        m_stale = true; // a revision we have not listed yet
    if (m_stale && isVisible())
        reload();
    showSelectedDiff();
    updateButtons();
}

void HistoryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale && !m_channel.isEmpty())
        reload();
}

void HistoryPanel::reload()
{
    if (m_channel.isEmpty())
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
    const quint64 generation = m_generation;
    const QString selectedId = selectedRevision() ? selectedRevision()->eventId : QString();
    QCoro::connect(
        m_services.canvas->history(m_channel, std::nullopt, m_pageSize), this,
        [this, generation, hadRows, selectedId](client::Result<canvas::HistoryPage> page) {
            if (generation != m_generation)
                return;
            m_loading = false;
            if (!page) {
                m_status->setText(
                    hadRows ? tr("Couldn't refresh history — showing last known revisions.")
                            : page.error().shortText());
                m_status->setToolTip(page.error().longText());
                updateButtons();
                return;
            }
            m_model->setFirstPage(*page);
            m_status->setText(page->revisions.empty() ? tr("No revisions yet.") : QString());
            m_status->setToolTip({});
            const int row = m_model->rowOf(selectedId);
            if (row >= 0)
                m_list->setCurrentIndex(m_model->index(row));
            updateButtons();
            emit historyLoaded(m_model->rowCount());
        });
    updateButtons();
}

void HistoryPanel::loadOlder()
{
    const auto cursor = m_model->nextCursor();
    if (!cursor || m_loading || m_channel.isEmpty())
        return;
    m_loading = true;
    m_loadOlder->setText(tr("Loading..."));
    updateButtons();
    const quint64 generation = m_generation;
    QCoro::connect(m_services.canvas->history(m_channel, cursor, m_pageSize), this,
                   [this, generation](client::Result<canvas::HistoryPage> page) {
                       if (generation != m_generation)
                           return;
                       m_loading = false;
                       m_loadOlder->setText(tr("Load older"));
                       if (!page) {
                           m_status->setText(page.error().shortText());
                           m_status->setToolTip(page.error().longText());
                       } else {
                           m_model->appendPage(*page);
                       }
                       updateButtons();
                       emit historyLoaded(m_model->rowCount());
                   });
}

const canvas::CanvasRevision *HistoryPanel::selectedRevision() const
{
    return m_model->revisionAt(m_list->currentIndex().row());
}

void HistoryPanel::onSelectionChanged()
{
    // Selecting another row clears the previous outcome (desktop behaviour).
    if (!m_restoring)
        m_notice->hide();
    showSelectedDiff();
    updateButtons();
}

void HistoryPanel::showSelectedDiff()
{
    const canvas::CanvasRevision *revision = selectedRevision();
    if (!revision) {
        m_diff->clear();
        return;
    }
    m_diff->showDiff(revision->content, m_current ? m_current->content : QString());
}

void HistoryPanel::updateButtons()
{
    const canvas::CanvasRevision *revision = selectedRevision();
    const bool isCurrent = revision && m_current && revision->hasId(m_current->eventId);
    m_restore->setVisible(m_canRestore);
    m_restore->setEnabled(m_canRestore && revision && !isCurrent && !m_restoring);
    m_restore->setToolTip(isCurrent ? tr("This revision is the current canvas.") : QString());
    m_loadOlder->setVisible(m_model->hasMore() || m_loadOlder->text() != tr("Load older"));
    m_loadOlder->setEnabled(m_model->hasMore() && !m_loading && !m_restoring);
}

void HistoryPanel::askRestore()
{
    const canvas::CanvasRevision *revision = selectedRevision();
    if (!revision || m_restoring)
        return;
    const canvas::CanvasRevision target = *revision;
    const QString author =
        m_services.profiles ? m_services.profiles->displayName(target.author) : target.author;
    // The head is frozen now, when the question is asked, not when it is answered.
    std::optional<QString> frozen =
        m_current ? std::optional<QString>(m_current->eventId) : std::nullopt;
    auto *dialog =
        new RestoreDialog(author, UiFormat::revisionTime(target.createdAt), frozen, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const quint64 generation = m_generation;
    connect(dialog, &QDialog::accepted, this, [this, dialog, target, generation] {
        if (generation == m_generation)
            runRestore(target, dialog->frozenHeadId());
    });
    dialog->open();
}

void HistoryPanel::runRestore(const canvas::CanvasRevision &target,
                              std::optional<QString> frozenHeadId)
{
    m_restoring = true;
    m_notice->hide();
    m_list->setEnabled(false);
    m_restore->setText(tr("Restoring..."));
    updateButtons();
    const quint64 generation = m_generation;
    QCoro::connect(m_services.canvas->restore(m_channel, target.eventId, frozenHeadId), this,
                   [this, generation](canvas::SaveOutcome outcome) {
                       if (generation != m_generation)
                           return;
                       onRestoreFinished(outcome);
                   });
}

void HistoryPanel::onRestoreFinished(const canvas::SaveOutcome &outcome)
{
    using Kind = canvas::SaveOutcome::Kind;
    m_restoring = false;
    m_list->setEnabled(true);
    m_restore->setText(tr("Restore this revision"));
    switch (outcome.kind) {
    case Kind::SavedVerified:
        m_notice->showMessage(tr("Restored."), NoticeBanner::Tone::Positive);
        break;
    case Kind::SavedUnverified:
    case Kind::AlreadyCurrent:
        m_notice->showMessage(outcome.userMessage(true), NoticeBanner::Tone::Info);
        break;
    case Kind::Conflict:
    case Kind::Superseded:
    case Kind::OutcomeUnknown:
        m_notice->showMessage(outcome.userMessage(true), NoticeBanner::Tone::Warning,
                              outcome.error ? outcome.error->detail : QString());
        break;
    case Kind::Error:
        m_notice->showMessage(
            outcome.error ? outcome.error->shortText() : outcome.userMessage(true),
            NoticeBanner::Tone::Error, outcome.error ? outcome.error->longText() : QString());
        break;
    }
    if (outcome.kind == Kind::SavedVerified || outcome.kind == Kind::SavedUnverified)
        setCurrent(outcome.saved);
    // Every settled outcome invalidates the list: even a failed restore may mean the head moved.
    m_stale = true;
    reload();
    updateButtons();
    m_notice->setFocus();
    emit restoreSettled(outcome);
}

} // namespace buzz::ui
