#pragma once

#include <QAccessibleWidget>

namespace buzz::ui {

class CanvasView;

// What a screen reader or AT-SPI automation sees of the rendered canvas: role Document (Qt's own
// interface for a QTextBrowser says "label"), read-only, focusable, with the text interface over
// the rendered document (read it, walk it by word or line, select, find where a character is).
class CanvasViewAccessible : public QAccessibleWidget, public QAccessibleTextInterface
{
public:
    explicit CanvasViewAccessible(CanvasView *view);

    // QAccessible::installFactory callback: this interface for every CanvasView.
    static QAccessibleInterface *factory(const QString &className, QObject *object);

    void *interface_cast(QAccessible::InterfaceType type) override;
    QAccessible::State state() const override;
    QString text(QAccessible::Text t) const override;

    void selection(int selectionIndex, int *startOffset, int *endOffset) const override;
    int selectionCount() const override;
    void addSelection(int startOffset, int endOffset) override;
    void removeSelection(int selectionIndex) override;
    void setSelection(int selectionIndex, int startOffset, int endOffset) override;
    int cursorPosition() const override;
    void setCursorPosition(int position) override;
    QString text(int startOffset, int endOffset) const override;
    int characterCount() const override;
    QRect characterRect(int offset) const override;
    int offsetAtPoint(const QPoint &point) const override;
    void scrollToSubstring(int startIndex, int endIndex) override;
    QString attributes(int offset, int *startOffset, int *endOffset) const override;

private:
    CanvasView *view() const;
    QString plainText() const;
};

} // namespace buzz::ui
