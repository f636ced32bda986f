#pragma once

#include "canvas/ChannelService.h"

#include <QAbstractListModel>

#include <optional>
#include <vector>

namespace buzz::ui {

// The channels the relay lists for us (mine first, then open channels we have not joined).
class ChannelListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        ChannelIdRole = Qt::UserRole + 1,
        IsMemberRole,
        IsArchivedRole,
        CanEditRole,
        AboutRole,
    };

    explicit ChannelListModel(QObject *parent = nullptr);

    void setChannels(std::vector<canvas::ChannelInfo> channels);
    // Inserts or replaces one channel (after create / join), keeping the order.
    void upsert(const canvas::ChannelInfo &channel);
    const std::vector<canvas::ChannelInfo> &channels() const { return m_channels; }
    std::optional<canvas::ChannelInfo> channel(const QString &id) const;
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    static bool sortsBefore(const canvas::ChannelInfo &a, const canvas::ChannelInfo &b);

    std::vector<canvas::ChannelInfo> m_channels;
};

} // namespace buzz::ui
