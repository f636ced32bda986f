#include "ui/ChannelListPanel.h"

#include "canvas/ChannelWatch.h"
#include "ui/Accessibility.h"
#include "ui/CreateChannelDialog.h"
#include "ui/OutcomePresenter.h"
#include "ui/models/ChannelListModel.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QVBoxLayout>

#include <qcoro/qcorotask.h>

#include <algorithm>

namespace buzz::ui {

ChannelListPanel::ChannelListPanel(const UiServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_model(new ChannelListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_list(new QListView(this))
    , m_create(new QPushButton(tr("New…"), this))
    , m_join(new QPushButton(tr("Join"), this))
    , m_leave(new QPushButton(tr("Leave…"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("channelListPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterRole(Qt::AccessibleTextRole);
    m_filter->setObjectName(QStringLiteral("channelFilterEdit"));
    m_filter->setAccessibleName(tr("Filter channels"));
    m_filter->setPlaceholderText(tr("Filter channels"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    m_filter->installEventFilter(this); // Esc clears it
    m_list->setObjectName(QStringLiteral("channelList"));
    m_list->setAccessibleName(tr("Channels"));
    m_list->setModel(m_proxy);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ChannelListPanel::onCurrentChanged);
    makeSelectionCurrent(m_list);
    m_create->setObjectName(QStringLiteral("createChannelButton"));
    m_create->setAccessibleName(tr("New channel"));
    m_create->setToolTip(tr("Create a channel"));
    m_create->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
    connect(m_create, &QPushButton::clicked, this, &ChannelListPanel::askCreate);
    m_join->setObjectName(QStringLiteral("joinChannelButton"));
    m_join->setAccessibleName(tr("Join channel"));
    m_join->setToolTip(tr("Join the selected open channel"));
    connect(m_join, &QPushButton::clicked, this, [this] { joinChannel(selectedChannelId()); });
    m_leave->setObjectName(QStringLiteral("leaveChannelButton"));
    m_leave->setAccessibleName(tr("Leave channel"));
    m_leave->setToolTip(tr("Leave the selected channel"));
    connect(m_leave, &QPushButton::clicked, this, [this] { askLeave(selectedChannelId()); });
    if (m_services.channelWatch)
        connect(m_services.channelWatch, &canvas::ChannelWatch::changed, this,
                [this] { refresh(); });
    m_status->setObjectName(QStringLiteral("channelListStatusLabel"));
    m_status->setWordWrap(true);
    m_status->hide();
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, [this] { refresh(); });
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &ChannelListPanel::updateProblemText);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_create);
    buttons->addWidget(m_join);
    buttons->addWidget(m_leave);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filter);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    updateButtons();
}

void ChannelListPanel::focusFilter()
{
    m_filter->setFocus();
    m_filter->selectAll();
}

bool ChannelListPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Esc in a filter with text clears it (KDE's filter fields do); an empty filter leaves Esc to
    // the window (close a notice, leave editing).
    if (watched == m_filter
        && (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress)) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier
            && !m_filter->text().isEmpty()) {
            if (event->type() == QEvent::KeyPress)
                m_filter->clear();
            event->accept(); // the override claims the key: the window's Esc does not fire
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString ChannelListPanel::selectedChannelId() const
{
    return m_list->currentIndex().data(ChannelListModel::ChannelIdRole).toString();
}

void ChannelListPanel::selectChannel(const QString &channelId)
{
    const int row = m_model->rowOf(channelId);
    if (row < 0) {
        m_pendingSelection = channelId;
        return;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row));
    if (!index.isValid()) {
        m_filter->clear();
    }
    m_list->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row)));
}

void ChannelListPanel::refresh(const QString &createFirstNamed)
{
    if (m_busy) {
        m_refreshAgain = true; // the answer on its way may predate what just changed
        return;
    }
    m_refreshAgain = false;
    m_busy = true;
    m_retry.stop();
    m_countdown.stop();
    m_status->setText(tr("Loading channels…"));
    m_status->show();
    QCoro::connect(
        m_services.channels->list(), this,
        [this, createFirstNamed](client::Result<std::vector<canvas::ChannelInfo>> channels) {
            m_busy = false;
            if (!channels) {
                showListProblem(channels.error());
                emit relayProblem(channels.error());
                return;
            }
            m_retryDelayMs = kFirstRetryMs;
            m_problem.clear();
            m_status->hide();
            const QString keep =
                m_pendingSelection.isEmpty() ? selectedChannelId() : m_pendingSelection;
            if (channels->empty() && !createFirstNamed.isEmpty()) {
                canvas::CreateChannelRequest request;
                request.name = createFirstNamed;
                request.about = tr("Your first channel. Its canvas is a shared Markdown page.");
                createChannel(request);
                return;
            }
            for (auto &channel : *channels) {
                if (!channel.isMember && m_joinedHere.contains(channel.id)) {
                    channel.isMember = true;
                    channel.myRole = QStringLiteral("member");
                }
            }
            const auto before = m_model->channel(keep);
            m_model->setChannels(std::move(*channels));
            emit channelsLoaded(m_model->rowCount());
            if (m_services.channelWatch) {
                QStringList ids;
                for (const auto &channel : m_model->channels())
                    ids << channel.id;
                m_services.channelWatch->setChannels(ids);
            }
            // A live change to the open channel (archived, renamed, we were removed) reaches it.
            if (const auto after = m_model->channel(keep); before && after
                && (after->name != before->name || after->archived != before->archived
                    || after->isMember != before->isMember || after->isPrivate != before->isPrivate
                    || after->about != before->about))
                emit channelUpdated(*after);
            if (!keep.isEmpty() && m_model->rowOf(keep) >= 0) {
                m_pendingSelection.clear();
                selectChannel(keep);
            } else if (m_model->rowCount() > 0 && !m_list->currentIndex().isValid()) {
                m_list->setCurrentIndex(m_proxy->index(0, 0));
            }
            updateButtons();
            if (m_refreshAgain)
                refresh();
        });
}

void ChannelListPanel::showListProblem(const client::RelayError &error)
{
    using Kind = client::RelayError::Kind;
    m_status->setToolTip(error.longText() + QLatin1Char('\n')
                         + tr("The relay's answer is in View → Diagnostics."));
    if (OutcomePresenter::isOutage(error, m_services.connection)) {
        // The connection banner says the relay is away; the list is read again when it is back.
        m_problem = tr("Waiting for the relay…");
        updateProblemText();
        return;
    }
    switch (error.kind) {
    case Kind::Retryable:
        m_problem = tr("The relay is busy.");
        break;
    case Kind::Timeout:
        m_problem = tr("The relay took too long to answer.");
        break;
    case Kind::Network:
        m_problem = tr("The connection to the relay dropped.");
        break;
    case Kind::Auth:
        m_problem = tr("The relay refused this identity.");
        break;
    case Kind::NotFound:
        m_problem = tr("This relay has no community at this address — check Settings.");
        break;
    default:
        m_problem = tr("Couldn't load the channel list.");
        break;
    }
    const bool transient = error.kind == Kind::Retryable || error.kind == Kind::Timeout
        || error.kind == Kind::Network || (error.kind == Kind::Internal && error.httpStatus >= 500);
    if (transient) {
        m_retry.start(m_retryDelayMs);
        m_retryDelayMs = std::min(m_retryDelayMs * 2, kMaxRetryMs);
        m_countdown.start();
    }
    updateProblemText();
}

void ChannelListPanel::updateProblemText()
{
    QString text = m_problem;
    if (m_retry.isActive()) {
        const int seconds = std::max(1, (m_retry.remainingTime() + 999) / 1000);
        text += QLatin1Char(' ') + tr("Trying again in %1 s.").arg(seconds);
    } else {
        m_countdown.stop();
    }
    m_status->setText(text);
    m_status->show();
}

void ChannelListPanel::onCurrentChanged()
{
    updateButtons();
    const QString id = selectedChannelId();
    if (const auto channel = m_model->channel(id))
        emit channelActivated(*channel);
}

void ChannelListPanel::updateButtons()
{
    const auto channel = m_model->channel(selectedChannelId());
    m_join->setEnabled(channel && !channel->isMember && !channel->isPrivate && !m_busy);
    m_join->setVisible(channel && !channel->isMember);
    m_leave->setEnabled(channel && channel->isMember && !m_busy);
    m_leave->setVisible(channel && channel->isMember);
}

void ChannelListPanel::askCreate()
{
    auto *dialog = new CreateChannelDialog(m_model->channels(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { createChannel(dialog->request()); });
    dialog->open();
}

void ChannelListPanel::createChannel(const canvas::CreateChannelRequest &request)
{
    m_busy = true;
    m_status->setText(tr("Creating #%1…").arg(request.name));
    m_status->show();
    updateButtons();
    QCoro::connect(
        m_services.channels->create(request), this,
        [this](client::Result<canvas::ChannelInfo> created) {
            m_busy = false;
            if (!created) {
                m_status->setText(
                    tr("Couldn't create the channel: %1").arg(created.error().shortText()));
                m_status->setToolTip(created.error().longText());
                emit relayProblem(created.error());
                updateButtons();
                return;
            }
            m_status->hide();
            m_joinedHere.insert(created->id);
            m_model->upsert(*created);
            m_filter->clear();
            selectChannel(created->id);
            emit channelsLoaded(m_model->rowCount());
            updateButtons();
        });
}

void ChannelListPanel::joinChannel(const QString &channelId)
{
    auto channel = m_model->channel(channelId);
    if (!channel || channel->isMember)
        return;
    m_busy = true;
    updateButtons();
    QCoro::connect(
        m_services.channels->join(channelId), this, [this, channelId](client::Result<void> joined) {
            m_busy = false;
            if (!joined) {
                m_status->setText(tr("Couldn't join: %1").arg(joined.error().shortText()));
                m_status->setToolTip(joined.error().longText());
                m_status->show();
                emit relayProblem(joined.error());
                updateButtons();
                return;
            }
            auto updated = m_model->channel(channelId);
            if (!updated)
                return;
            m_joinedHere.insert(channelId);
            updated->isMember = true;
            if (updated->myRole.isEmpty())
                updated->myRole = QStringLiteral("member");
            m_model->upsert(*updated);
            selectChannel(channelId);
            updateButtons();
            emit channelUpdated(*updated);
        });
}

} // namespace buzz::ui

namespace buzz::ui {

void ChannelListPanel::askLeave(const QString &channelId)
{
    const auto channel = m_model->channel(channelId);
    if (!channel || !channel->isMember)
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Leave #%1?").arg(channel->name),
                                channel->isPrivate
                                    ? tr("You will no longer see this private channel or its "
                                         "canvas until a member adds you again.")
                                    : tr("The channel stays open: you can still read and edit its "
                                         "canvas, and join it again at any time."),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("leaveChannelDialog"));
    box->setAccessibleName(box->text());
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *leave = box->addButton(tr("&Leave"), QMessageBox::AcceptRole);
    leave->setObjectName(QStringLiteral("leaveChannelConfirmButton"));
    box->button(QMessageBox::Cancel)->setObjectName(QStringLiteral("leaveChannelCancelButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    connect(leave, &QPushButton::clicked, this, [this, channelId] { leaveChannel(channelId); });
    box->open();
}

void ChannelListPanel::leaveChannel(const QString &channelId)
{
    const auto channel = m_model->channel(channelId);
    if (!channel || !channel->isMember)
        return;
    m_busy = true;
    updateButtons();
    QCoro::connect(
        m_services.channels->leave(channelId), this, [this, channelId](client::Result<void> left) {
            m_busy = false;
            if (!left) {
                m_status->setText(tr("Couldn't leave: %1").arg(left.error().shortText()));
                m_status->setToolTip(left.error().longText());
                m_status->show();
                emit relayProblem(left.error());
                updateButtons();
                return;
            }
            m_status->hide();
            m_joinedHere.remove(channelId);
            if (auto updated = m_model->channel(channelId)) {
                updated->isMember = false;
                updated->myRole.clear();
                m_model->upsert(*updated);
                selectChannel(channelId);
                emit channelUpdated(*updated);
            }
            updateButtons();
            refresh(); // a private channel leaves the list
        });
}

} // namespace buzz::ui
