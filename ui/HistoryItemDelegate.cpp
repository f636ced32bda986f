#include "ui/HistoryItemDelegate.h"

#include "ui/models/HistoryModel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace buzz::ui {

void HistoryItemDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorGroup group =
        option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    const QColor text =
        option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    QColor muted = text;
    muted.setAlphaF(0.65);

    const QRect area = option.rect.adjusted(8, 4, -8, -4);
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    const QFontMetrics metrics(option.font);

    painter->save();
    const bool current = index.data(HistoryModel::IsCurrentRole).toBool();
    int badgeWidth = 0;
    if (current) {
        QFont small = option.font;
        small.setPointSizeF(option.font.pointSizeF() * 0.85);
        small.setBold(true);
        const QFontMetrics smallMetrics(small);
        const QString badge = tr("Current");
        badgeWidth = smallMetrics.horizontalAdvance(badge) + 12;
        const QRect badgeRect(area.right() - badgeWidth, area.top() + 1, badgeWidth,
                              smallMetrics.height() + 4);
        QPainterPath path;
        path.addRoundedRect(badgeRect, 6, 6);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->fillPath(path, QColor(39, 174, 96));
        painter->setPen(Qt::white);
        painter->setFont(small);
        painter->drawText(badgeRect, Qt::AlignCenter, badge);
        badgeWidth += 6;
    }
    painter->setPen(text);
    painter->setFont(bold);
    const QString author = boldMetrics.elidedText(index.data(HistoryModel::AuthorRole).toString(),
                                                  Qt::ElideRight, area.width() - badgeWidth);
    painter->drawText(
        QRect(area.left(), area.top(), area.width() - badgeWidth, boldMetrics.height()),
        Qt::AlignLeft | Qt::AlignVCenter, author);
    painter->setFont(option.font);
    const QRect second(area.left(), area.top() + boldMetrics.height() + 2, area.width(),
                       metrics.height());
    // "+N −M" against the revision it replaced, right-aligned, green and red as in the diff.
    const int added = index.data(HistoryModel::AddedLinesRole).toInt();
    const int removed = index.data(HistoryModel::RemovedLinesRole).toInt();
    int changeWidth = 0;
    if (added >= 0 && removed >= 0) {
        const QString plus = QStringLiteral("+%1").arg(added);
        const QString minus = QStringLiteral(" −%1").arg(removed);
        const int minusWidth = metrics.horizontalAdvance(minus);
        changeWidth = metrics.horizontalAdvance(plus) + minusWidth;
        const QColor green = selected ? text : QColor(39, 174, 96);
        const QColor red = selected ? text : QColor(218, 68, 83);
        painter->setPen(green);
        painter->drawText(second.adjusted(0, 0, -minusWidth, 0), Qt::AlignRight | Qt::AlignVCenter,
                          plus);
        painter->setPen(red);
        painter->drawText(second, Qt::AlignRight | Qt::AlignVCenter, minus);
        changeWidth += 8;
    }
    // The time, then what the revision was when its author said so ("Restored from 14:02 by …").
    QString when = index.data(HistoryModel::TimeRole).toString();
    if (const QString label = index.data(HistoryModel::LabelRole).toString(); !label.isEmpty())
        when = tr("%1 · %2").arg(when, label);
    painter->setPen(muted);
    painter->drawText(second.adjusted(0, 0, -changeWidth, 0), Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(when, Qt::ElideRight, second.width() - changeWidth));
    painter->restore();
}

QSize HistoryItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    QFont bold = option.font;
    bold.setBold(true);
    return {200, QFontMetrics(bold).height() + QFontMetrics(option.font).height() + 12};
}

} // namespace buzz::ui
