#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/Merge3.h"

#include <QAbstractListModel>
#include <QHash>
#include <QPointer>

#include <optional>
#include <vector>

namespace buzz::canvas {
class CanvasSession;
class ProfileCache;
} // namespace buzz::canvas

namespace buzz::ui {

// Revisions of one canvas, newest first, page by page ("Load older" appends the next page), as
// the relay lists them plus what the open canvas's session knows better: the head and the
// revisions the writer confirmed to it (its own saves and restores) appear at once, even while a
// lagging replica serves pages without them. "Current" is the session's head; the model keeps no
// head of its own.
class HistoryModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        EventIdRole = Qt::UserRole + 1,
        AuthorRole, // display name (profile name, else short npub)
        AuthorPubkeyRole,
        TimeRole, // relative ("5 min ago"); the exact time is in the tooltip
        CreatedAtRole, // unix seconds
        IsCurrentRole,
        ChangeSummaryRole, // "+3 −1" against the revision it replaced; empty while unknown
        AddedLinesRole, // int, -1 while unknown
        RemovedLinesRole, // int, -1 while unknown
        LabelRole, // "Restored from 14:02 by Alice", "Merged with Bob's change"; empty: a save
    };

    explicit HistoryModel(canvas::ProfileCache *profiles, QObject *parent = nullptr);

    // The session whose head is "Current" and whose confirmed revisions are listed (may be null).
    void setSession(canvas::CanvasSession *session);

    void clear();
    // First page replaces, later pages append (rows already present are skipped).
    void setFirstPage(const canvas::HistoryPage &page);
    void appendPage(const canvas::HistoryPage &page);
    std::optional<canvas::HistoryCursor> nextCursor() const { return m_nextCursor; }
    bool hasMore() const { return m_nextCursor.has_value(); }

    QString currentHeadId() const;

    const canvas::CanvasRevision *revisionAt(int row) const;
    // The revision `row` replaced (RevisionLineage), when it is listed or was read by id. Else
    // nullopt, and `unreadId` is the tagged parent's id to read (addParent), or an empty string
    // when it is the previous revision of a page not loaded yet; nullopt for a first revision.
    std::optional<canvas::CanvasRevision> parentOf(int row, std::optional<QString> *unreadId) const;
    // A parent read by id that no listed page has (it may be older than every page loaded).
    void addParent(const canvas::CanvasRevision &parent);
    int rowOf(const QString &eventId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    void onProfilesUpdated(const QStringList &pubkeys);
    void onTick(); // relative times move on
    // The revision `row` replaced: its expected-revision parent when listed (or read by id), else
    // for an untagged row the next older one. nullptr with *first = true for the channel's first
    // revision; *final when found by the revision's own tag (rows loaded later cannot change it).
    const canvas::CanvasRevision *predecessor(int row, bool *first, bool *final) const;
    QString labelText(const canvas::CanvasRevision &revision) const;
    std::optional<canvas::Merge3::LineChange> changeAt(int row) const;
    void onHeadChanged();
    // Inserts the session's head and confirmed revisions the pages lack, in the relay's order.
    // Only where they belong among the rows listed so far: an older one waits for its page.
    void mergeSessionRevisions();
    void insertKnown(const canvas::CanvasRevision &revision);

    canvas::ProfileCache *m_profiles;
    QPointer<canvas::CanvasSession> m_session;
    std::vector<canvas::CanvasRevision> m_revisions;
    std::optional<canvas::HistoryCursor> m_nextCursor;
    // Line changes by event id, computed when a row is first painted (a diff per visible row, not
    // per listed one); revisions never change, so entries stay valid.
    mutable QHash<QString, canvas::Merge3::LineChange> m_changes;
    QHash<QString, canvas::CanvasRevision> m_parentsById; // lower-case id → revision
    QString m_shownHeadId; // the row last painted "Current" (to repaint it when the head moves)
};

} // namespace buzz::ui
