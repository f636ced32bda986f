#pragma once

#include "canvas/ChannelService.h"
#include "ui/SettingsDialog.h"
#include "ui/UiServices.h"

#include <QMainWindow>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;
class QToolButton;

namespace buzz::ui {

class CanvasPane;
class ChannelListPanel;
class ChannelSwitcher;
class ConnectionStatus;
class DiagnosticsPanel;
class HistoryPanel;
class NoticeBanner;
class SearchPanel;
class ShortcutPriority;

// The app window: channels on the left, the canvas in the centre, History / Search / Diagnostics
// docks, and a status bar with the relay, identity and save state. Services are injected, so tests
// build it against any relay.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(const UiServices &services, QSettings *settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads the channel list and opens the first channel. `firstChannelName`: create it when the
    // relay has no channel at all (first run on the embedded relay).
    void start(const QString &firstChannelName = {});
    void openChannel(const QString &channelId);

    // What Settings shows and whether --relay / BUZZ_RELAY_URL overrides it.
    void setRelaySettings(const SettingsDialog::Values &values, const QString &overrideNote);

    CanvasPane *canvasPane() const { return m_canvas; }
    ChannelListPanel *channelList() const { return m_channels; }
    HistoryPanel *historyPanel() const { return m_history; }
    SearchPanel *searchPanel() const { return m_search; }
    DiagnosticsPanel *diagnosticsPanel() const { return m_diagnostics; }
    ConnectionStatus *connectionStatus() const { return m_connectionStatus; }
    QDockWidget *historyDock() const { return m_historyDock; }
    QDockWidget *searchDock() const { return m_searchDock; }
    QDockWidget *diagnosticsDock() const { return m_diagnosticsDock; }

    void showSettings();
    void showIdentity();

signals:
    void relaySettingsChanged(const buzz::ui::SettingsDialog::Values &values);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    void createConnectionBanner();
    void onChannelActivated(const canvas::ChannelInfo &channel);
    void onRelayProblem(const client::RelayError &error);
    void onConnectionRecovered();
    void updateRelayStatus();
    void updateIdentityStatus();
    void updateTitle();
    void updateActions();
    void fitToScreen();

    UiServices m_services;
    QSettings *m_settings;
    SettingsDialog::Values m_relaySettings;
    QString m_relayOverrideNote;

    ConnectionStatus *m_connectionStatus;
    CanvasPane *m_canvas;
    ChannelListPanel *m_channels;
    HistoryPanel *m_history;
    SearchPanel *m_search;
    DiagnosticsPanel *m_diagnostics;
    ChannelSwitcher *m_switcher;
    QDockWidget *m_channelsDock = nullptr;
    QDockWidget *m_historyDock = nullptr;
    QDockWidget *m_searchDock = nullptr;
    QDockWidget *m_diagnosticsDock = nullptr;

    QAction *m_editAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_reloadAction = nullptr;
    QAction *m_historyAction = nullptr;
    QAction *m_searchAction = nullptr;
    QAction *m_previewAction = nullptr;

    NoticeBanner *m_connectionBanner = nullptr;
    QLabel *m_relayStatus = nullptr;
    QToolButton *m_relayRetry = nullptr;
    QLabel *m_liveStatus = nullptr;
    QToolButton *m_identityButton = nullptr;
    QLabel *m_saveState = nullptr;
    QString m_relayProblem; // the last failed request's long wording (status bar tooltip)
    ShortcutPriority *m_shortcutPriority = nullptr;
    bool m_canvasFocusedOnce = false;
};

} // namespace buzz::ui
