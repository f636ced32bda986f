#include "ui/models/HistoryModel.h"

#include "canvas/ProfileCache.h"
#include "ui/UiFormat.h"

#include <QSet>

namespace buzz::ui {

HistoryModel::HistoryModel(canvas::ProfileCache *profiles, QObject *parent)
    : QAbstractListModel(parent)
    , m_profiles(profiles)
{
    if (m_profiles)
        connect(m_profiles, &canvas::ProfileCache::profilesUpdated, this,
                &HistoryModel::onProfilesUpdated);
}

void HistoryModel::clear()
{
    beginResetModel();
    m_revisions.clear();
    m_nextCursor.reset();
    endResetModel();
}

void HistoryModel::setFirstPage(const canvas::HistoryPage &page)
{
    beginResetModel();
    m_revisions = page.revisions;
    m_nextCursor = page.nextCursor;
    endResetModel();
    if (m_profiles) {
        QStringList authors;
        for (const auto &revision : m_revisions)
            authors << revision.author;
        m_profiles->request(authors);
    }
}

void HistoryModel::appendPage(const canvas::HistoryPage &page)
{
    m_nextCursor = page.nextCursor;
    std::vector<canvas::CanvasRevision> fresh;
    for (const auto &revision : page.revisions) {
        if (rowOf(revision.eventId) < 0)
            fresh.push_back(revision);
    }
    if (fresh.empty())
        return;
    const int first = int(m_revisions.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    QStringList authors;
    for (auto &revision : fresh) {
        authors << revision.author;
        m_revisions.push_back(std::move(revision));
    }
    endInsertRows();
    if (m_profiles)
        m_profiles->request(authors);
}

void HistoryModel::setCurrentHeadId(const QString &eventId)
{
    if (m_currentHeadId.compare(eventId, Qt::CaseInsensitive) == 0)
        return;
    const int before = rowOf(m_currentHeadId);
    m_currentHeadId = eventId.toLower();
    const int after = rowOf(m_currentHeadId);
    for (int row : {before, after}) {
        if (row >= 0)
            emit dataChanged(index(row), index(row), {IsCurrentRole, Qt::AccessibleTextRole});
    }
}

const canvas::CanvasRevision *HistoryModel::revisionAt(int row) const
{
    if (row < 0 || row >= int(m_revisions.size()))
        return nullptr;
    return &m_revisions[std::size_t(row)];
}

int HistoryModel::rowOf(const QString &eventId) const
{
    if (eventId.isEmpty())
        return -1;
    for (std::size_t i = 0; i < m_revisions.size(); ++i) {
        if (m_revisions[i].hasId(eventId))
            return int(i);
    }
    return -1;
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_revisions.size());
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    const canvas::CanvasRevision *revision = revisionAt(index.row());
    if (!index.isValid() || !revision)
        return {};
    const bool current = revision->hasId(m_currentHeadId);
    const auto author = [&] {
        return m_profiles ? m_profiles->displayName(revision->author) : revision->author.left(12);
    };
    switch (role) {
    case Qt::DisplayRole:
    case AuthorRole:
        return author();
    case Qt::AccessibleTextRole:
        return current
            ? tr("%1, %2, current").arg(author(), UiFormat::revisionTime(revision->createdAt))
            : tr("%1, %2").arg(author(), UiFormat::revisionTime(revision->createdAt));
    case Qt::ToolTipRole:
        return tr("Revision %1").arg(revision->eventId.left(16));
    case EventIdRole:
        return revision->eventId;
    case AuthorPubkeyRole:
        return revision->author;
    case TimeRole:
        return UiFormat::revisionTime(revision->createdAt);
    case CreatedAtRole:
        return revision->createdAt;
    case IsCurrentRole:
        return current;
    default:
        return {};
    }
}

void HistoryModel::onProfilesUpdated(const QStringList &pubkeys)
{
    if (m_revisions.empty())
        return;
    const QSet<QString> updated(pubkeys.begin(), pubkeys.end());
    for (std::size_t i = 0; i < m_revisions.size(); ++i) {
        if (updated.contains(m_revisions[i].author))
            emit dataChanged(index(int(i)), index(int(i)), {Qt::DisplayRole, AuthorRole});
    }
}

} // namespace buzz::ui
