#pragma once

#include <QObject>
#include <QTimer>

#include <chrono>

namespace buzz::ui {

// Keeps "5 min ago" true while the app stays open: one timer for the whole UI, and every view that
// shows a relative time (header, History, search) repaints it on tick(). One shared timer instead
// of one per row keeps an idle window at one wake-up per interval.
class RelativeTimeTicker : public QObject
{
    Q_OBJECT
public:
    static RelativeTimeTicker *instance();

    // 30 s by default (a minute-resolution text is never more than half a minute stale).
    void setInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds interval() const;

signals:
    void tick();

private:
    RelativeTimeTicker();
    QTimer m_timer;
};

} // namespace buzz::ui
