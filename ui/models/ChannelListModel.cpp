#include "ui/models/ChannelListModel.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace buzz::ui {

ChannelListModel::ChannelListModel(QObject *parent)
    : QAbstractListModel(parent)
{ }

bool ChannelListModel::sortsBefore(const canvas::ChannelInfo &a, const canvas::ChannelInfo &b)
{
    if (a.isMember != b.isMember)
        return a.isMember; // my channels first
    if (a.archived != b.archived)
        return !a.archived;
    const int byName = a.name.compare(b.name, Qt::CaseInsensitive);
    return byName != 0 ? byName < 0 : a.id < b.id;
}

void ChannelListModel::setChannels(std::vector<canvas::ChannelInfo> channels)
{
    std::stable_sort(channels.begin(), channels.end(), sortsBefore);
    beginResetModel();
    m_channels = std::move(channels);
    endResetModel();
}

void ChannelListModel::upsert(const canvas::ChannelInfo &channel)
{
    const int existing = rowOf(channel.id);
    if (existing >= 0) {
        beginRemoveRows({}, existing, existing);
        m_channels.erase(m_channels.begin() + existing);
        endRemoveRows();
    }
    const auto at = std::lower_bound(m_channels.begin(), m_channels.end(), channel, sortsBefore);
    const int row = int(at - m_channels.begin());
    beginInsertRows({}, row, row);
    m_channels.insert(at, channel);
    endInsertRows();
}

std::optional<canvas::ChannelInfo> ChannelListModel::channel(const QString &id) const
{
    const int row = rowOf(id);
    if (row < 0)
        return std::nullopt;
    return m_channels[std::size_t(row)];
}

int ChannelListModel::rowOf(const QString &id) const
{
    for (std::size_t i = 0; i < m_channels.size(); ++i) {
        if (m_channels[i].id.compare(id, Qt::CaseInsensitive) == 0)
            return int(i);
    }
    return -1;
}

int ChannelListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_channels.size());
}

QVariant ChannelListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const canvas::ChannelInfo &channel = m_channels[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        QString label = QStringLiteral("# ") + channel.name;
        if (channel.archived)
            label += tr("  (archived)");
        else if (!channel.isMember)
            label += tr("  (not joined)");
        return label;
    }
    case Qt::ToolTipRole:
        return channel.about.isEmpty() ? channel.name
                                       : channel.name + QStringLiteral("\n") + channel.about;
    case Qt::AccessibleTextRole:
        return channel.name;
    case Qt::FontRole:
        if (!channel.isMember || channel.archived) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (!channel.isMember || channel.archived)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case ChannelIdRole:
        return channel.id;
    case IsMemberRole:
        return channel.isMember;
    case IsArchivedRole:
        return channel.archived;
    case CanEditRole:
        return channel.canEditCanvas();
    case AboutRole:
        return channel.about;
    default:
        return {};
    }
}

QHash<int, QByteArray> ChannelListModel::roleNames() const
{
    auto names = QAbstractListModel::roleNames();
    names.insert(ChannelIdRole, "channelId");
    names.insert(IsMemberRole, "isMember");
    names.insert(IsArchivedRole, "archived");
    names.insert(CanEditRole, "canEdit");
    return names;
}

} // namespace buzz::ui
