#pragma once

#include "canvas/LineBlame.h"

#include <QAbstractTableModel>

namespace buzz::canvas {
class ProfileCache;
}

namespace buzz::ui {

// The blame of one revision as a table: line number, who last changed the line, when, the line.
class BlameModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LineColumn, AuthorColumn, TimeColumn, TextColumn, ColumnCount };
    enum Role {
        RevisionIdRole = Qt::UserRole + 1,
        AuthorPubkeyRole,
        CreatedAtRole,
        OrEarlierRole,
    };

    explicit BlameModel(canvas::ProfileCache *profiles, QObject *parent = nullptr);

    void setBlame(const canvas::Blame &blame);
    void clear();
    const canvas::Blame &blame() const { return m_blame; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void onProfilesUpdated();

    canvas::ProfileCache *m_profiles;
    canvas::Blame m_blame;
};

} // namespace buzz::ui
