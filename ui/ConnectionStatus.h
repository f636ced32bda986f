#pragma once

#include "ui/NoticeBanner.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace buzz::client {
class RelaySocket;
}
namespace buzz::canvas {
class CanvasWatch;
}

namespace buzz::ui {

// The words for the connection state machine (client::RelaySocket::State) and the open canvas's
// live subscription, in one place: the status bar (relayStatusLabel, relayRetryButton,
// liveStatusLabel), the connection banner above the canvas (connectionBanner) and the
// Diagnostics dock all show these strings, so they never disagree. Ticks once a second while a
// countdown or a silence is on screen.
class ConnectionStatus : public QObject
{
    Q_OBJECT
public:
    enum class Action {
        None,
        RetryNow, // Reconnecting / Stalled / Connecting after failures: connect now
        Reconnect, // AuthRejected: try again (after fixing Identity or Settings)
    };

    ConnectionStatus(client::RelaySocket *socket, canvas::CanvasWatch *canvas,
                     QObject *parent = nullptr);

    // The canvas whose live updates liveText() describes (empty: none).
    void setChannel(const QString &channel);

    QString stateText() const; // "Connected", "Can't reach the relay. Retrying in 4 s.", …
    QString detailText() const; // the last error, in the relay's or the socket's words
    QString liveText() const; // "Live updates on", "Live updates paused — …", empty: no canvas

    bool bannerVisible() const; // anything but Connected (and the first Connecting)
    NoticeBanner::Tone bannerTone() const;
    Action action() const;
    QString actionLabel() const; // "Retry now" / "Reconnect"
    void act(); // performs action()

signals:
    void changed();

private:
    void update();

    client::RelaySocket *m_socket;
    canvas::CanvasWatch *m_canvas;
    QString m_channel;
    QTimer m_ticker;
};

} // namespace buzz::ui
