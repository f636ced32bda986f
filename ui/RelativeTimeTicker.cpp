#include "ui/RelativeTimeTicker.h"

#include <QCoreApplication>

namespace buzz::ui {

RelativeTimeTicker::RelativeTimeTicker()
    : QObject(QCoreApplication::instance())
{
    m_timer.setInterval(std::chrono::seconds(30));
    m_timer.setTimerType(Qt::VeryCoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, &RelativeTimeTicker::tick);
    m_timer.start();
}

RelativeTimeTicker *RelativeTimeTicker::instance()
{
    // Owned by the application object, so it goes with it.
    static RelativeTimeTicker *ticker = new RelativeTimeTicker;
    return ticker;
}

void RelativeTimeTicker::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setTimerType(interval < std::chrono::seconds(2) ? Qt::CoarseTimer
                                                            : Qt::VeryCoarseTimer);
    m_timer.start(interval);
}

std::chrono::milliseconds RelativeTimeTicker::interval() const
{
    return m_timer.intervalAsDuration();
}

} // namespace buzz::ui
