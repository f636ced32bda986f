#pragma once

#include <QStyledItemDelegate>

namespace buzz::ui {

// One search row: a canvas hit as its channel in bold, "author · time" muted, and the snippet with
// the matching words highlighted; people and headings as the default delegate draws them.
class SearchResultDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace buzz::ui
