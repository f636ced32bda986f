#pragma once

#include "canvas/CanvasRevision.h"

#include <QAbstractListModel>

#include <optional>
#include <vector>

namespace buzz::canvas {
class ProfileCache;
}

namespace buzz::ui {

// Revisions of one canvas, newest first, page by page ("Load older" appends the next page).
class HistoryModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        EventIdRole = Qt::UserRole + 1,
        AuthorRole, // display name (profile name, else short npub)
        AuthorPubkeyRole,
        TimeRole, // formatted local time
        CreatedAtRole, // unix seconds
        IsCurrentRole,
    };

    explicit HistoryModel(canvas::ProfileCache *profiles, QObject *parent = nullptr);

    void clear();
    // First page replaces, later pages append (rows already present are skipped).
    void setFirstPage(const canvas::HistoryPage &page);
    void appendPage(const canvas::HistoryPage &page);
    std::optional<canvas::HistoryCursor> nextCursor() const { return m_nextCursor; }
    bool hasMore() const { return m_nextCursor.has_value(); }

    void setCurrentHeadId(const QString &eventId);
    QString currentHeadId() const { return m_currentHeadId; }

    const canvas::CanvasRevision *revisionAt(int row) const;
    int rowOf(const QString &eventId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    void onProfilesUpdated(const QStringList &pubkeys);

    canvas::ProfileCache *m_profiles;
    std::vector<canvas::CanvasRevision> m_revisions;
    std::optional<canvas::HistoryCursor> m_nextCursor;
    QString m_currentHeadId;
};

} // namespace buzz::ui
