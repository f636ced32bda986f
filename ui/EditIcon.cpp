#include "ui/EditIcon.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QWidget>

namespace buzz::ui {

namespace {

QPixmap pencil(int size, const QColor &colour)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(size / 16.0, size / 16.0);
    // A pencil from bottom-left to top-right: tip, body and the eraser cap.
    QPainterPath body;
    body.moveTo(2.0, 14.0);
    body.lineTo(3.0, 10.5);
    body.lineTo(11.0, 2.5);
    body.lineTo(13.5, 5.0);
    body.lineTo(5.5, 13.0);
    body.closeSubpath();
    painter.setPen(QPen(colour, 1.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(body);
    painter.drawLine(QPointF(9.5, 4.0), QPointF(12.0, 6.5)); // the cap's edge
    painter.drawLine(QPointF(3.0, 10.5), QPointF(5.5, 13.0)); // where the tip starts
    painter.setBrush(colour);
    painter.drawPolygon(QPolygonF({QPointF(2.0, 14.0), QPointF(2.6, 11.8), QPointF(4.2, 13.4)}));
    return pixmap;
}

} // namespace

QIcon editIcon(const QWidget *widget)
{
    const QIcon themed = QIcon::fromTheme(QStringLiteral("document-edit"));
    if (!themed.isNull())
        return themed;
    QIcon icon;
    const QPalette palette = widget->palette();
    for (int size : {16, 22, 24, 32, 48}) {
        icon.addPixmap(pencil(size, palette.color(QPalette::Active, QPalette::ButtonText)),
                       QIcon::Normal);
        icon.addPixmap(pencil(size, palette.color(QPalette::Disabled, QPalette::ButtonText)),
                       QIcon::Disabled);
    }
    return icon;
}

} // namespace buzz::ui
