#pragma once

#include <QStyledItemDelegate>

namespace buzz::ui {

// One history row: author in bold, the relative time underneath with "+N −M" lines against the
// revision it replaced, a "Current" badge on the head.
class HistoryItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace buzz::ui
