#pragma once

#include "net/client/RelaySocket.h"
#include "ui/SettingsDialog.h"
#include "ui/UiServices.h"

#include <QObject>
#include <QString>

#include <qcoro/qcorotask.h>

#include <memory>
#include <optional>

class QLockFile;
class QSettings;

namespace buzz::client {
class RelayConnection;
}
namespace buzz::canvas {
class LastSeenRevisions;
}
namespace buzz::ui {
class MainWindow;
}

namespace buzz::desktop {

class EmbeddedRelay;

// Everything the desktop app wires together, in one object a test can construct: the settings,
// the embedded relay (unless a remote one is configured), the identity, the relay connection, the
// services and the MainWindow. `--profile DIR` puts every file of it under DIR.
class DesktopSession : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::optional<QString> profileDir; // all state under it; none = the standard locations
        std::optional<QString>
            relayUrl; // remote relay (--relay / BUZZ_RELAY_URL); wins over Settings
        QString relaySource; // "--relay" / "BUZZ_RELAY_URL" for the Settings note
        bool showWindow = true;
        QString firstChannelName = QStringLiteral("general");
        // Reconnect / stall timings of the relay connection (tests shorten them).
        std::optional<client::RelaySocket::Timing> connectionTiming;
    };

    explicit DesktopSession(Options options, QObject *parent = nullptr);
    ~DesktopSession() override;

    // Starts the relay (embedded or remote), loads or creates the identity, opens the window and
    // starts loading channels. False (with errorString()) when the app cannot run at all.
    QCoro::Task<bool> start();
    // Tears everything down (drafts flushed) and starts again with the current settings.
    QCoro::Task<bool> restart();

    QString errorString() const { return m_error; }
    QString dataDir() const { return m_dataDir; }
    QString relayUrl() const; // what the connection talks to
    bool isEmbedded() const { return m_relay != nullptr; }
    EmbeddedRelay *embeddedRelay() const { return m_relay.get(); }
    ui::MainWindow *window() const { return m_window; }
    const ui::UiServices &services() const { return m_services; }
    QSettings *settings() const { return m_settings.get(); }

signals:
    void started();
    // The first canvas (or its empty/error state) is on screen.
    void firstCanvasShown();

private:
    void teardown();
    void applyRelaySettings(const ui::SettingsDialog::Values &values);

    Options m_options;
    QString m_dataDir;
    QString m_error;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<QLockFile> m_lock; // one running app per profile (held across restart())
    std::unique_ptr<EmbeddedRelay> m_relay;
    std::unique_ptr<canvas::LastSeenRevisions> m_lastSeen;
    ui::UiServices m_services;
    QObject *m_serviceOwner = nullptr; // parent of connection and services
    ui::MainWindow *m_window = nullptr;
    bool m_firstShown = false;
};

} // namespace buzz::desktop
