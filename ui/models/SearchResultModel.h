#pragma once

#include <QAbstractListModel>
#include <QString>

#include <vector>

namespace buzz::ui {

// Search hits of both kinds in one list: canvases (open the channel) and people (show the npub).
class SearchResultModel : public QAbstractListModel
{
    Q_OBJECT
public:
    struct Hit
    {
        enum class Kind { Canvas, Person, Heading };
        Kind kind = Kind::Canvas;
        QString title; // channel name / person's name / section heading
        QString snippet; // matching line / npub
        QString channelId; // Canvas
        QString eventId; // Canvas: the matching revision
        QString pubkey; // Person
    };
    enum Role { KindRole = Qt::UserRole + 1, ChannelIdRole, EventIdRole, PubkeyRole };

    explicit SearchResultModel(QObject *parent = nullptr);

    void setHits(std::vector<Hit> hits);
    const Hit *hitAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    std::vector<Hit> m_hits;
};

} // namespace buzz::ui
