#include "ui/models/HistoryModel.h"

#include "canvas/CanvasSession.h"
#include "canvas/ProfileCache.h"
#include "canvas/RevisionLineage.h"
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

const canvas::CanvasRevision *HistoryModel::predecessor(int row, bool *first, bool *final) const
{
    *first = false;
    *final = false;
    const canvas::CanvasRevision *revision = revisionAt(row);
    if (!revision)
        return nullptr;
    using Kind = canvas::RevisionLineage::Parent::Kind;
    const auto parent = canvas::RevisionLineage::parentOf(m_revisions, *revision, hasMore());
    *final = parent.byTag;
    if (parent.kind == Kind::First) {
        *first = true;
        *final = true;
        return nullptr;
    }
    if (parent.kind == Kind::Listed)
        return revisionAt(parent.row);
    const auto read = m_parentsById.constFind(parent.id);
    return parent.id.isEmpty() || read == m_parentsById.constEnd() ? nullptr : &*read;
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
    bool final = false;
    const canvas::CanvasRevision *before = predecessor(row, &first, &final);
    if (!before && !first)
        return std::nullopt; // its predecessor is on a page not loaded yet, or not read by id
    const auto change =
        canvas::Merge3::lineChange(before ? before->content : QString(), revision->content);
    // Only a parent found by its id is final: "the next older row" may change as pages and the
    // session's own revisions arrive.
    if (final)
        m_changes.insert(key, change);
    return change;
}

std::optional<canvas::CanvasRevision> HistoryModel::parentOf(int row,
                                                             std::optional<QString> *unreadId) const
{
    unreadId->reset();
    bool first = false;
    bool final = false;
    if (const canvas::CanvasRevision *before = predecessor(row, &first, &final))
        return *before;
    const canvas::CanvasRevision *revision = revisionAt(row);
    if (!first && revision) {
        const auto parent = canvas::RevisionLineage::parentOf(m_revisions, *revision, hasMore());
        *unreadId = parent.id; // empty: the previous revision is on a page not loaded yet
    }
    return std::nullopt;
}

void HistoryModel::addParent(const canvas::CanvasRevision &parent)
{
    m_parentsById.insert(parent.eventId.toLower(), parent);
    for (int row = 0; row < rowCount(); ++row) {
        const auto &tag = m_revisions[std::size_t(row)].expectedRevision;
        if (tag && parent.hasId(*tag))
            emit dataChanged(index(row), index(row),
                             {ChangeSummaryRole, AddedLinesRole, RemovedLinesRole});
    }
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
    m_parentsById.clear();
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
        QString withChange = change.isEmpty() ? text : tr("%1, %2").arg(text, change);
        if (const QString label = labelText(*revision); !label.isEmpty())
            withChange = tr("%1, %2").arg(withChange, label);
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
    case LabelRole:
        return labelText(*revision);
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

QString HistoryModel::labelText(const canvas::CanvasRevision &revision) const
{
    if (!revision.label)
        return {};
    const canvas::RevisionLabel &label = *revision.label;
    if (label.kind == canvas::RevisionLabel::Kind::Restore)
        return tr("Restored from %1 by %2")
            .arg(UiFormat::revisionTime(label.createdAt),
                 UiFormat::personName(m_profiles, revision.author));
    return tr("Merged with %1's change").arg(UiFormat::personName(m_profiles, label.author));
}

void HistoryModel::onProfilesUpdated(const QStringList &pubkeys)
{
    if (m_revisions.empty())
        return;
    const QSet<QString> updated(pubkeys.begin(), pubkeys.end());
    // The user's own name changed: whose name could pass for it changed with it (UiFormat).
    const bool selfUpdated = m_profiles && updated.contains(m_profiles->selfPubkey());
    for (std::size_t i = 0; i < m_revisions.size(); ++i) {
        const auto &label = m_revisions[i].label;
        if (selfUpdated || updated.contains(m_revisions[i].author)
            || (label && updated.contains(label->author)))
            emit dataChanged(index(int(i)), index(int(i)),
                             {Qt::DisplayRole, AuthorRole, LabelRole});
    }
}

} // namespace buzz::ui
