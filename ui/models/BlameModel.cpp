#include "ui/models/BlameModel.h"

#include "canvas/ProfileCache.h"
#include "ui/RelativeTimeTicker.h"
#include "ui/UiFormat.h"

#include <QSet>

namespace buzz::ui {

BlameModel::BlameModel(canvas::ProfileCache *profiles, QObject *parent)
    : QAbstractTableModel(parent)
    , m_profiles(profiles)
{
    if (m_profiles)
        connect(m_profiles, &canvas::ProfileCache::profilesUpdated, this,
                &BlameModel::onProfilesUpdated);
    connect(RelativeTimeTicker::instance(), &RelativeTimeTicker::tick, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, TimeColumn), index(rowCount() - 1, TimeColumn));
    });
}

void BlameModel::setBlame(const canvas::Blame &blame)
{
    beginResetModel();
    m_blame = blame;
    endResetModel();
    if (m_profiles) {
        QSet<QString> authors;
        for (const canvas::BlameLine &line : m_blame.lines)
            authors.insert(line.author);
        m_profiles->request(QStringList(authors.begin(), authors.end()));
    }
}

void BlameModel::clear()
{
    setBlame({});
}

int BlameModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_blame.lines.size());
}

int BlameModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BlameModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const canvas::BlameLine &line = m_blame.lines[std::size_t(index.row())];
    const auto when = [&] {
        const QString time = UiFormat::relativeTime(line.createdAt);
        return line.orEarlier ? tr("%1 or earlier").arg(time) : time;
    };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        switch (index.column()) {
        case LineColumn:
            return index.row() + 1;
        case AuthorColumn:
            return UiFormat::personName(m_profiles, line.author);
        case TimeColumn:
            return when();
        case TextColumn:
            return line.text;
        }
        return {};
    case Qt::ToolTipRole:
        return tr("Line %1: last changed by %2, %3\nRevision %4")
            .arg(index.row() + 1)
            .arg(UiFormat::personToolTip(m_profiles, line.author),
                 line.orEarlier ? tr("%1 or earlier").arg(UiFormat::revisionTime(line.createdAt))
                                : UiFormat::revisionTime(line.createdAt),
                 line.revisionId.left(16));
    case Qt::TextAlignmentRole:
        return index.column() == LineColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case RevisionIdRole:
        return line.revisionId;
    case AuthorPubkeyRole:
        return line.author;
    case CreatedAtRole:
        return line.createdAt;
    case OrEarlierRole:
        return line.orEarlier;
    default:
        return {};
    }
}

QVariant BlameModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LineColumn:
        return tr("Line");
    case AuthorColumn:
        return tr("Who");
    case TimeColumn:
        return tr("When");
    case TextColumn:
        return tr("Text");
    }
    return {};
}

void BlameModel::onProfilesUpdated()
{
    if (rowCount() > 0)
        emit dataChanged(index(0, AuthorColumn), index(rowCount() - 1, AuthorColumn));
}

} // namespace buzz::ui
