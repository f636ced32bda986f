#pragma once

#include "canvas/CanvasRevision.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace buzz::canvas {

class CanvasService;

// The re-check of a canvas shown from a display read (docs/architecture.md §Live updates). A
// display read may come from a replica up to the relay's staleness budget behind, and a relay may
// leave a gap no live event fills (a revision committed just before the live subscription went
// up, docs/buzz-protocol.md §Read consistency): once the budget has passed
// (CanvasService::staleRecheckAfter), the head is read again from the writer, unless something
// as strong was learned meanwhile (`stillRouted` says). One check per display read.
class HeadRecheck : public QObject
{
    Q_OBJECT
public:
    HeadRecheck(CanvasService *service, QString channel, std::function<bool()> stillRouted,
                QObject *parent = nullptr);

    void schedule(); // a display read was shown: check it once the budget has passed
    bool isScheduled() const { return m_timer.isActive(); }

signals:
    // The writer's head, whatever it is (the session adopts it when newer, or now knows its own
    // head strongly).
    void headRead(const buzz::canvas::CanvasRevision &head);

private:
    void check();

    CanvasService *m_service;
    QString m_channel;
    std::function<bool()> m_stillRouted;
    QTimer m_timer;
};

} // namespace buzz::canvas
