#include "ui/models/HistoryModel.h"

#include "canvas/CanvasSession.h"
#include "canvas/ProfileCache.h"
#include "ui/RelativeTimeTicker.h"
#include "ui/UiFormat.h"

#include <QSet>

#include <algorithm>

namespace buzz::ui {

HistoryModel::HistoryModel(canvas::ProfileCache *profiles, QObject *parent)
    : QAbstractListModel(parent)
    , m_profiles(profiles)
{
    if (m_profiles)
        connect(m_profiles, &canvas::ProfileCache::profilesUpdated, this,
                &HistoryModel::onProfilesUpdated);
    connect(RelativeTimeTicker::instance(), &RelativeTimeTicker::tick, this, &HistoryModel::onTick);
}

void HistoryModel::onTick()
{
    if (!m_revisions.empty())
        emit dataChanged(index(0), index(int(m_revisions.size()) - 1),
                         {TimeRole, Qt::AccessibleTextRole});
}

const canvas::CanvasRevision *HistoryModel::predecessor(int row, bool *first) const
{
    *first = false;
    const canvas::CanvasRevision *revision = revisionAt(row);
    if (!revision)
        return nullptr;
    if (revision->expectedRevision == QLatin1String(canvas::kExpectedNone)) {
        *first = true;
        return nullptr;
    }
    if (revision->expectedRevision) {
        if (const auto *parent = revisionAt(rowOf(*revision->expectedRevision)))
            return parent;
    }
    if (const auto *older = revisionAt(row + 1))
        return older;
    *first = !hasMore(); // the oldest revision there is
    return nullptr;
}

std::optional<canvas::Merge3::LineChange> HistoryModel::changeAt(int row) const
{
    const canvas::CanvasRevision *revision = revisionAt(row);
    if (!revision)
        return std::nullopt;
    const QString key = revision->eventId.toLower();
    if (auto it = m_changes.constFind(key); it != m_changes.constEnd())
        return *it;
    bool first = false;
    const canvas::CanvasRevision *before = predecessor(row, &first);
    if (!before && !first)
        return std::nullopt; // its predecessor is on a page not loaded yet
    const auto change =
        canvas::Merge3::lineChange(before ? before->content : QString(), revision->content);
    // Only a parent found by its id is final: "the next older row" may change as pages and the
    // session's own revisions arrive.
    if (first
        || (before && revision->expectedRevision && before->hasId(*revision->expectedRevision)))
        m_changes.insert(key, change);
    return change;
}

void HistoryModel::setSession(canvas::CanvasSession *session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    if (m_session) {
        connect(m_session, &canvas::CanvasSession::headChanged, this, &HistoryModel::onHeadChanged);
        connect(m_session, &canvas::CanvasSession::confirmedRevisionsChanged, this,
                &HistoryModel::mergeSessionRevisions);
    }
    onHeadChanged();
}

QString HistoryModel::currentHeadId() const
{
    if (!m_session || !m_session->head())
        return {};
    return m_session->head()->eventId.toLower();
}

void HistoryModel::onHeadChanged()
{
    mergeSessionRevisions();
    const QString head = currentHeadId();
    if (head == m_shownHeadId)
        return;
    const int before = rowOf(m_shownHeadId);
    m_shownHeadId = head;
    for (int row : {before, rowOf(head)}) {
        if (row >= 0)
            emit dataChanged(index(row), index(row), {IsCurrentRole, Qt::AccessibleTextRole});
    }
}

void HistoryModel::mergeSessionRevisions()
{
    if (!m_session)
        return;
    if (const auto &head = m_session->head())
        insertKnown(*head);
    for (const canvas::CanvasRevision &revision : m_session->confirmedRevisions().newestFirst())
        insertKnown(revision);
}

void HistoryModel::insertKnown(const canvas::CanvasRevision &revision)
{
    if (rowOf(revision.eventId) >= 0)
        return;
    const auto position = std::find_if(
        m_revisions.begin(), m_revisions.end(),
        [&](const canvas::CanvasRevision &listed) { return revision.isNewerThan(listed); });
    if (position == m_revisions.end() && hasMore())
        return; // older than every listed row: its own page will bring it
    const int row = int(position - m_revisions.begin());
    beginInsertRows({}, row, row);
    m_revisions.insert(position, revision);
    endInsertRows();
    if (m_profiles)
        m_profiles->request({revision.author});
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
    mergeSessionRevisions();
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
    if (fresh.empty()) {
        mergeSessionRevisions();
        return;
    }
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
    mergeSessionRevisions();
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
    const bool current = revision->hasId(currentHeadId());
    const auto author = [&] {
        return UiFormat::personName(m_profiles, revision->author);
    };
    switch (role) {
    case Qt::DisplayRole:
    case AuthorRole:
        return author();
    case Qt::AccessibleTextRole: {
        const QString text =
            tr("%1, %2").arg(author(), UiFormat::revisionTime(revision->createdAt));
        const QString change = data(index, ChangeSummaryRole).toString();
        const QString withChange = change.isEmpty() ? text : tr("%1, %2").arg(text, change);
        return current ? tr("%1, current").arg(withChange) : withChange;
    }
    case Qt::ToolTipRole:
        return tr("%1\n%2\nRevision %3")
            .arg(UiFormat::revisionTime(revision->createdAt),
                 UiFormat::personToolTip(m_profiles, revision->author), revision->eventId.left(16));
    case ChangeSummaryRole: {
        const auto change = changeAt(index.row());
        if (!change)
            return QString();
        return tr("+%1 −%2").arg(change->added).arg(change->removed);
    }
    case AddedLinesRole:
    case RemovedLinesRole: {
        const auto change = changeAt(index.row());
        if (!change)
            return -1;
        return role == AddedLinesRole ? change->added : change->removed;
    }
    case EventIdRole:
        return revision->eventId;
    case AuthorPubkeyRole:
        return revision->author;
    case TimeRole:
        return UiFormat::relativeTime(revision->createdAt);
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
    // The user's own name changed: whose name could pass for it changed with it (UiFormat).
    const bool selfUpdated = m_profiles && updated.contains(m_profiles->selfPubkey());
    for (std::size_t i = 0; i < m_revisions.size(); ++i) {
        if (selfUpdated || updated.contains(m_revisions[i].author))
            emit dataChanged(index(int(i)), index(int(i)), {Qt::DisplayRole, AuthorRole});
    }
}

} // namespace buzz::ui
