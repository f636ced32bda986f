#pragma once

#include "ui/ContentBrowser.h"

namespace buzz::ui {

// The rendered canvas: a read-only ContentBrowser (it loads nothing the canvas names, and its
// links open only after the user confirmed them) that draws a visible focus frame (the style's
// frame of a read-only view shows no focus) and reports itself to screen readers as a document,
// with its text readable (CanvasViewAccessible), rather than as a label.
class CanvasView : public ContentBrowser
{
    Q_OBJECT
public:
    explicit CanvasView(QWidget *parent = nullptr);

    // Width of the focus frame in device-independent pixels (drawn inside the widget's frame).
    static constexpr int kFocusFrameWidth = 2;

protected:
    bool event(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
};

} // namespace buzz::ui
