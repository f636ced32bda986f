#pragma once

#include <QAbstractListModel>
#include <QString>

#include <vector>

namespace buzz::canvas {
class ProfileCache;
}

namespace buzz::ui {

// Search hits of both kinds in one list: canvases (one row per channel, newest first; activating
// one opens the channel) and people (show the npub).
class SearchResultModel : public QAbstractListModel
{
    Q_OBJECT
public:
    struct Hit
    {
        enum class Kind { Canvas, Person, Heading };
        Kind kind = Kind::Canvas;
        QString title; // channel name / person's name / section heading
        QString snippet; // text around the match / npub
        QString channelId; // Canvas
        QString eventId; // Canvas: the revision the snippet comes from
        QString pubkey; // Person; Canvas: the author of that revision
        qint64 createdAt = 0; // Canvas: that revision's time
        qsizetype matchStart = -1; // Canvas: the match inside `snippet`
        qsizetype matchLength = 0;
        bool inCurrent = true; // Canvas: false when only an older revision matches
        int matchingRevisions = 0; // Canvas
    };
    enum Role {
        KindRole = Qt::UserRole + 1,
        ChannelIdRole,
        EventIdRole,
        PubkeyRole,
        SnippetRole,
        MatchStartRole,
        MatchLengthRole,
        MetaRole, // Canvas: "Alice · 5 min ago" (+ "only in an older revision")
        InCurrentRole,
    };

    explicit SearchResultModel(canvas::ProfileCache *profiles, QObject *parent = nullptr);

    void setHits(std::vector<Hit> hits);
    const Hit *hitAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    QString meta(const Hit &hit) const;
    void refreshCanvasRows(); // names arrived, or relative times moved on

    canvas::ProfileCache *m_profiles;
    std::vector<Hit> m_hits;
};

} // namespace buzz::ui
