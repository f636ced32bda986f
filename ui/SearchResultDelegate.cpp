#include "ui/SearchResultDelegate.h"

#include "ui/models/SearchResultModel.h"

#include <QApplication>
#include <QPainter>

namespace buzz::ui {

namespace {
bool isCanvas(const QModelIndex &index)
{
    return index.data(SearchResultModel::KindRole).toInt()
        == int(SearchResultModel::Hit::Kind::Canvas);
}
} // namespace

void SearchResultDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                 const QModelIndex &index) const
{
    if (!isCanvas(index)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool selected = option.state & QStyle::State_Selected;
    const QColor text = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    QColor muted = text;
    muted.setAlphaF(0.65);
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    const QFontMetrics metrics(option.font);
    const QRect area = option.rect.adjusted(6, 3, -6, -3);

    painter->save();
    int y = area.top();
    painter->setFont(bold);
    painter->setPen(text);
    const QString title = index.data(Qt::DisplayRole).toString().section(QLatin1Char('\n'), 0, 0);
    painter->drawText(QRect(area.left(), y, area.width(), boldMetrics.height()),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      boldMetrics.elidedText(title, Qt::ElideRight, area.width()));
    y += boldMetrics.height() + 1;
    painter->setFont(option.font);
    painter->setPen(muted);
    painter->drawText(QRect(area.left(), y, area.width(), metrics.height()),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(index.data(SearchResultModel::MetaRole).toString(),
                                         Qt::ElideRight, area.width()));
    y += metrics.height() + 1;

    // The snippet with its match highlighted, clipped to the row's width.
    const QString snippet = index.data(SearchResultModel::SnippetRole).toString();
    const qsizetype start = index.data(SearchResultModel::MatchStartRole).toLongLong();
    const qsizetype length = index.data(SearchResultModel::MatchLengthRole).toLongLong();
    const QRect line(area.left(), y, area.width(), metrics.height());
    painter->setClipRect(line);
    painter->setPen(text);
    if (start < 0 || start + length > snippet.size()) {
        painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                          metrics.elidedText(snippet, Qt::ElideRight, area.width()));
    } else {
        // In a narrow dock the match must stay in view: the text before it gives way first.
        const QString before =
            metrics.elidedText(snippet.left(start), Qt::ElideLeft, line.width() * 2 / 5);
        const QString match = snippet.mid(start, length);
        const QString after = snippet.mid(start + length);
        int x = line.left();
        painter->drawText(QRect(x, y, line.right() - x, metrics.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, before);
        x += metrics.horizontalAdvance(before);
        QFont strong = option.font;
        strong.setBold(true);
        const QFontMetrics strongMetrics(strong);
        const QRect matchRect(x, y, strongMetrics.horizontalAdvance(match) + 2, metrics.height());
        QColor mark = option.palette.color(QPalette::Highlight);
        mark.setAlphaF(selected ? 0.0 : 0.28);
        painter->fillRect(matchRect, mark);
        painter->setFont(strong);
        painter->drawText(matchRect.adjusted(1, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, match);
        x += matchRect.width();
        painter->setFont(option.font);
        painter->drawText(QRect(x, y, qMax(0, line.right() - x), metrics.height()),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          metrics.elidedText(after, Qt::ElideRight, qMax(0, line.right() - x)));
    }
    painter->restore();
}

QSize SearchResultDelegate::sizeHint(const QStyleOptionViewItem &option,
                                     const QModelIndex &index) const
{
    if (!isCanvas(index))
        return QStyledItemDelegate::sizeHint(option, index);
    QFont bold = option.font;
    bold.setBold(true);
    return {200, QFontMetrics(bold).height() + 2 * QFontMetrics(option.font).height() + 10};
}

} // namespace buzz::ui
