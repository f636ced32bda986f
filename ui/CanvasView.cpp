#include "ui/CanvasView.h"

#include "ui/Accessibility.h"

#include <QEvent>
#include <QPainter>

namespace buzz::ui {

CanvasView::CanvasView(QWidget *parent)
    : ContentBrowser(parent)
{
    installAccessibleFactories(); // a document, not Qt's "label" for a QTextBrowser
    // Room for the focus frame around the viewport, so it never covers the text.
    setViewportMargins(kFocusFrameWidth, kFocusFrameWidth, kFocusFrameWidth, kFocusFrameWidth);
}

bool CanvasView::event(QEvent *event)
{
    const bool handled = QTextBrowser::event(event);
    if (event->type() == QEvent::Paint && hasFocus()) {
        // The frame is painted on the scroll area itself (the viewport paints the text).
        QPainter painter(this);
        QPen pen(palette().color(QPalette::Active, QPalette::Highlight), kFocusFrameWidth);
        pen.setJoinStyle(Qt::MiterJoin);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        const qreal half = kFocusFrameWidth / 2.0;
        painter.drawRect(QRectF(rect()).adjusted(half, half, -half, -half));
    }
    return handled;
}

void CanvasView::focusInEvent(QFocusEvent *event)
{
    QTextBrowser::focusInEvent(event);
    update();
}

void CanvasView::focusOutEvent(QFocusEvent *event)
{
    QTextBrowser::focusOutEvent(event);
    update();
}

} // namespace buzz::ui
