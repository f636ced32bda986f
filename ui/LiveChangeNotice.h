#pragma once

#include "ui/NoticeBanner.h"
#include "ui/UiServices.h"

#include <QPointer>

namespace buzz::canvas {
class CanvasSession;
class LiveChangeTracker;
} // namespace buzz::canvas

namespace buzz::ui {

class CanvasDisplay;
class CanvasView;
class CanvasPane;

// The canvas pane's notice of changes as they happen (canvas::LiveChangeTracker): "Bob changed
// this canvas just now · Show changes" while the user reads, "This canvas changed since your last
// visit · What changed" when a canvas opens, and the changed lines highlighted in the rendered
// canvas for a while. "Show changes" opens a ChangesDialog. objectName liveUpdateBanner.
class LiveChangeNotice : public NoticeBanner
{
    Q_OBJECT
public:
    LiveChangeNotice(const UiServices &services, CanvasPane *pane, CanvasDisplay *display);

    canvas::LiveChangeTracker *tracker() const;
    // The rendered lines highlighted now (their text), for tests and screen readers.
    QStringList highlightedBlocks() const;

private:
    void follow(canvas::CanvasSession *session);
    void onAnnounced();
    void onChangedSinceLastVisit(const QString &revisionId);
    void showChanges();
    void applyHighlight();

    UiServices m_services;
    CanvasView *m_view; // the rendered canvas, where changed lines are marked
    QPointer<canvas::LiveChangeTracker> m_tracker;
    QPointer<canvas::CanvasSession> m_session;
};

} // namespace buzz::ui
