#include "ui/models/SearchResultModel.h"

#include <QFont>

namespace buzz::ui {

SearchResultModel::SearchResultModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

void SearchResultModel::setHits(std::vector<Hit> hits)
{
    beginResetModel();
    m_hits = std::move(hits);
    endResetModel();
}

const SearchResultModel::Hit *SearchResultModel::hitAt(int row) const
{
    if (row < 0 || row >= int(m_hits.size()))
        return nullptr;
    return &m_hits[std::size_t(row)];
}

int SearchResultModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_hits.size());
}

Qt::ItemFlags SearchResultModel::flags(const QModelIndex &index) const
{
    const Hit *hit = hitAt(index.row());
    if (hit && hit->kind == Hit::Kind::Heading)
        return Qt::ItemIsEnabled;
    return QAbstractListModel::flags(index);
}

QVariant SearchResultModel::data(const QModelIndex &index, int role) const
{
    const Hit *hit = hitAt(index.row());
    if (!hit)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        if (hit->kind == Hit::Kind::Heading)
            return hit->title;
        return hit->snippet.isEmpty() ? hit->title
                                      : hit->title + QStringLiteral("\n") + hit->snippet;
    case Qt::AccessibleTextRole:
        return hit->title;
    case Qt::ToolTipRole:
        return hit->kind == Hit::Kind::Person ? hit->pubkey : hit->snippet;
    case Qt::FontRole:
        if (hit->kind == Hit::Kind::Heading) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case KindRole:
        return int(hit->kind);
    case ChannelIdRole:
        return hit->channelId;
    case EventIdRole:
        return hit->eventId;
    case PubkeyRole:
        return hit->pubkey;
    default:
        return {};
    }
}

} // namespace buzz::ui
