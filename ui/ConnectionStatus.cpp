#include "ui/ConnectionStatus.h"

#include "canvas/CanvasWatch.h"
#include "net/client/RelaySocket.h"

namespace buzz::ui {

namespace {

using SocketState = client::RelaySocket::State;
using SubscriptionState = client::RelaySocket::SubscriptionState;

// Whole seconds, rounded up, so a countdown never shows "0 s" while it still waits.
qint64 seconds(std::chrono::milliseconds duration)
{
    return (std::max<qint64>(duration.count(), 0) + 999) / 1000;
}

} // namespace

ConnectionStatus::ConnectionStatus(client::RelaySocket *socket, canvas::CanvasWatch *canvas,
                                   QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_canvas(canvas)
{
    m_ticker.setInterval(1000);
    connect(&m_ticker, &QTimer::timeout, this, &ConnectionStatus::changed);
    connect(m_socket, &client::RelaySocket::stateChanged, this, &ConnectionStatus::update);
    if (m_canvas) {
        connect(m_canvas, &canvas::CanvasWatch::watchStateChanged, this,
                [this](const QString &channel) {
                    if (channel.compare(m_channel, Qt::CaseInsensitive) == 0)
                        update();
                });
    }
    update();
}

void ConnectionStatus::setChannel(const QString &channel)
{
    m_channel = channel;
    update();
}

void ConnectionStatus::update()
{
    // Countdowns and silences change every second without a state change.
    const bool counting = m_socket->state() == SocketState::Reconnecting
        || m_socket->state() == SocketState::Stalled
        || (m_canvas && !m_channel.isEmpty()
            && m_canvas->watchState(m_channel) == SubscriptionState::Resubscribing);
    if (counting && !m_ticker.isActive())
        m_ticker.start();
    else if (!counting)
        m_ticker.stop();
    emit changed();
}

QString ConnectionStatus::stateText() const
{
    switch (m_socket->state()) {
    case SocketState::Idle:
        return tr("Not connected");
    case SocketState::Connecting:
        return m_socket->failedAttempts() == 0
            ? tr("Connecting…")
            : tr("Connecting again (attempt %1)…").arg(m_socket->failedAttempts() + 1);
    case SocketState::Connected:
        return tr("Connected");
    case SocketState::Stalled:
        return tr("The relay is not answering (silent for %1 s). Saves may not go through.")
            .arg(seconds(m_socket->silentFor()));
    case SocketState::Reconnecting: {
        // An overdue timer reads 0: the attempt is starting, not "in 0 s".
        const qint64 wait = seconds(m_socket->nextAttemptIn());
        if (m_socket->lastErrorIsRelays()) // reachable: it sent what the app refuses to take in
            return wait > 0
                ? tr("The relay sent more than this app accepts. Reconnecting in %1 s.").arg(wait)
                : tr("The relay sent more than this app accepts. Reconnecting now.");
        return wait > 0 ? tr("Can't reach the relay. Retrying in %1 s.").arg(wait)
                        : tr("Can't reach the relay. Retrying now.");
    }
    case SocketState::AuthRejected:
        return tr("The relay refused this identity: %1").arg(m_socket->lastError());
    }
    return {};
}

QString ConnectionStatus::detailText() const
{
    if (m_socket->state() == SocketState::AuthRejected)
        return tr("Check that Identity holds the key this relay knows, and that the relay URL in "
                  "Settings is the address the relay advertises; then Reconnect.");
    if (m_socket->lastError().isEmpty())
        return {};
    if (m_socket->lastErrorIsRelays()) // the network is fine: sending it again would not help
        return tr("Last problem: %1. If it keeps happening, tell whoever runs the relay.")
            .arg(m_socket->lastError());
    return tr("Last problem: %1. Check your VPN or network connection.").arg(m_socket->lastError());
}

QString ConnectionStatus::liveText() const
{
    if (!m_canvas || m_channel.isEmpty() || !m_canvas->isWatching(m_channel))
        return {};
    if (m_socket->state() != SocketState::Connected && m_socket->state() != SocketState::Stalled)
        return tr("Live updates paused");
    switch (m_canvas->watchState(m_channel)) {
    case SubscriptionState::Pending:
        return tr("Live updates starting…");
    case SubscriptionState::Live:
        return tr("Live updates on");
    case SubscriptionState::Resubscribing: {
        const qint64 wait = seconds(m_canvas->watchRetryIn(m_channel));
        return wait > 0 ? tr("Live updates paused (relay: %1) — resubscribing in %2 s")
                              .arg(m_canvas->watchError(m_channel))
                              .arg(wait)
                        : tr("Live updates paused (relay: %1) — resubscribing now")
                              .arg(m_canvas->watchError(m_channel));
    }
    case SubscriptionState::Refused:
        return tr("Live updates off (relay: %1) — reload to see changes")
            .arg(m_canvas->watchError(m_channel));
    }
    return {};
}

bool ConnectionStatus::bannerVisible() const
{
    const SocketState state = m_socket->state();
    return state == SocketState::Stalled || state == SocketState::Reconnecting
        || state == SocketState::AuthRejected
        || (state == SocketState::Connecting && m_socket->failedAttempts() > 0);
}

NoticeBanner::Tone ConnectionStatus::bannerTone() const
{
    return m_socket->state() == SocketState::Stalled ? NoticeBanner::Tone::Warning
                                                     : NoticeBanner::Tone::Error;
}

ConnectionStatus::Action ConnectionStatus::action() const
{
    switch (m_socket->state()) {
    case SocketState::Stalled:
    case SocketState::Reconnecting:
        return Action::RetryNow;
    case SocketState::Connecting:
        return m_socket->failedAttempts() > 0 ? Action::RetryNow : Action::None;
    case SocketState::AuthRejected:
        return Action::Reconnect;
    case SocketState::Idle:
    case SocketState::Connected:
        break;
    }
    return Action::None;
}

QString ConnectionStatus::actionLabel() const
{
    switch (action()) {
    case Action::RetryNow:
        return tr("Retry now");
    case Action::Reconnect:
        return tr("Reconnect");
    case Action::None:
        break;
    }
    return {};
}

void ConnectionStatus::act()
{
    if (action() != Action::None)
        m_socket->reconnectNow();
}

} // namespace buzz::ui
