#include "canvas/HeadRecheck.h"

#include "canvas/CanvasService.h"

#include <QLoggingCategory>

#include <qcoro/qcorotask.h>

Q_LOGGING_CATEGORY(lcHeadRecheck, "buzz.canvas.recheck")

namespace buzz::canvas {

HeadRecheck::HeadRecheck(CanvasService *service, QString channel, std::function<bool()> stillRouted,
                         QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_channel(std::move(channel))
    , m_stillRouted(std::move(stillRouted))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HeadRecheck::check);
}

void HeadRecheck::schedule()
{
    m_timer.start(m_service->staleRecheckAfter());
}

void HeadRecheck::check()
{
    if (!m_stillRouted())
        return; // a save, a restore or a resync read the writer since: nothing to check
    // Bound to this object: closing the canvas (the session and its children) drops the answer.
    QCoro::connect(m_service->recheckHead(m_channel), this,
                   [this](client::Result<std::optional<CanvasRevision>> head) {
                       if (!head) {
                           // The connection's own recovery (a resync read when it is back)
                           // covers an outage; the next display read schedules another check.
                           qCInfo(lcHeadRecheck)
                               << m_channel.left(8) << "re-check failed:" << head.error().detail;
                           return;
                       }
                       if (*head)
                           emit headRead(**head);
                   });
}

} // namespace buzz::canvas
