#include "ui/MainWindow.h"

#include "canvas/CanvasSession.h"
#include "canvas/DraftStore.h"
#include "canvas/Identity.h"
#include "canvas/ProfileCache.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "ui/Accessibility.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasFileActions.h"
#include "ui/CanvasOutline.h"
#include "ui/CanvasPane.h"
#include "ui/ChannelListPanel.h"
#include "ui/ChannelSwitcher.h"
#include "ui/ConnectionStatus.h"
#include "ui/ContentDocument.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/EditIcon.h"
#include "ui/HistoryPanel.h"
#include "ui/IdentityDialog.h"
#include "ui/NoticeBanner.h"
#include "ui/SearchPanel.h"
#include "ui/ShortcutPriority.h"
#include "ui/ShortcutsDialog.h"
#include "ui/SpellingAction.h"
#include "ui/UiFormat.h"
#include "ui/models/ChannelListModel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace buzz::ui {

namespace {
constexpr char kLastChannelKey[] = "channels/last";
} // namespace

MainWindow::MainWindow(const UiServices &services, QSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_services(services)
    , m_settings(settings)
    , m_connectionStatus(
          new ConnectionStatus(services.connection->socket(), services.canvasWatch, this))
    , m_canvas(new CanvasPane(services, this))
    , m_channels(new ChannelListPanel(services, this))
    , m_history(new HistoryPanel(services, this))
    , m_search(new SearchPanel(services, this))
    , m_diagnostics(new DiagnosticsPanel(services.connection->requestLog(), this))
    , m_switcher(new ChannelSwitcher(settings, m_channels->model(), this))
{
    // Names and channel titles from the relay show in labels that take rich text: no document of
    // the app loads what such text names (ContentDocument).
    ContentDocument::refuseResourcesEverywhere();
    setObjectName(QStringLiteral("mainWindow"));
    setAccessibleName(tr("Buzz Canvas"));
    m_diagnostics->setSessionSource([services] {
        return client::RequestJournal::Session {QCoreApplication::applicationVersion(),
                                                services.connection->relayUrl().toString(),
                                                services.identity ? services.identity->npub()
                                                                  : QString(),
                                                {}};
    });
    createConnectionBanner();
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    resize(1280, 800);

    createActions();
    createDocks();
    createStatusBar();

    connect(m_channels, &ChannelListPanel::channelActivated, this, &MainWindow::onChannelActivated);
    connect(m_channels, &ChannelListPanel::channelUpdated, this,
            [this](const canvas::ChannelInfo &channel) {
                m_canvas->updateChannel(channel);
                m_history->setCanRestore(channel.canEditCanvas());
                updateActions();
                m_canvas->focusCanvas(); // joined: the canvas is what the user came for
            });
    connect(m_channels, &ChannelListPanel::relayProblem, this, &MainWindow::onRelayProblem);
    m_diagnostics->setConnectionStatus(m_connectionStatus);
    connect(m_canvas, &CanvasPane::joinRequested, m_channels, &ChannelListPanel::joinChannel);
    connect(m_canvas, &CanvasPane::settingsRequested, this, &MainWindow::showSettings);
    connect(m_canvas, &CanvasPane::identityRequested, this, &MainWindow::showIdentity);
    connect(m_canvas, &CanvasPane::relayProblem, this, &MainWindow::onRelayProblem);
    connect(m_canvas, &CanvasPane::sessionOpened, this, [this](canvas::CanvasSession *session) {
        m_history->setSession(session, m_canvas->channel().canEditCanvas());
        connect(session, &canvas::CanvasSession::stateChanged, this, &MainWindow::updateActions);
    });
    connect(m_canvas, &CanvasPane::editingChanged, this, [this] {
        updateActions();
        updateTitle();
    });
    connect(m_canvas, &CanvasPane::canvasShown, this, [this] {
        updateActions();
        if (!std::exchange(m_canvasFocusedOnce, true))
            m_canvas->focusCanvas(); // at start focus would rest in the channel filter
    });
    connect(m_canvas, &CanvasPane::saveStateChanged, this, [this](const QString &state) {
        m_saveState->setText(state);
        updateTitle();
    });
    connect(m_search, &SearchPanel::channelRequested, this, &MainWindow::openChannel);
    connect(m_switcher, &ChannelSwitcher::channelPicked, this, &MainWindow::openChannel);

    // The window's shortcuts work wherever focus is, also in fields that would take them as
    // editing keys (Ctrl+E is "end of line" to a QLineEdit).
    m_shortcutPriority = new ShortcutPriority(actions(), this);
    for (QAction *action : findChildren<QAction *>())
        m_shortcutPriority->addAction(action);
    for (const char *name :
         {"channelFilterEdit", "searchQueryEdit", "findTextEdit", "replaceTextEdit"}) {
        if (auto *field = findChild<QWidget *>(QLatin1String(name)))
            m_shortcutPriority->watch(field);
    }
    m_shortcutPriority->watch(m_canvas->editor()->textEdit(), CanvasEditor::ownShortcuts());
    m_search->setChannelNamer([this](const QString &id) {
        const auto channel = m_channels->model()->channel(id);
        return channel ? channel->name : QString();
    });

    connect(m_connectionStatus, &ConnectionStatus::changed, this, &MainWindow::updateRelayStatus);
    connect(m_services.connection->socket(), &client::RelaySocket::recovered, this,
            &MainWindow::onConnectionRecovered);
    if (m_services.profiles)
        connect(m_services.profiles, &canvas::ProfileCache::profilesUpdated, this,
                &MainWindow::updateIdentityStatus);
    connect(m_services.identity, &canvas::Identity::changed, this, [this] {
        updateIdentityStatus();
        m_channels->refresh(); // "my channels" belong to the identity
    });

    if (m_settings) {
        restoreGeometry(m_settings->value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(m_settings->value(QStringLiteral("window/state")).toByteArray());
    }
    fitToScreen();
    nameStandardControls(this);
    updateRelayStatus();
    updateIdentityStatus();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    auto *fileMenu = menuBar()->addMenu(tr("&File"));
    auto *newChannel = fileMenu->addAction(tr("&New Channel…"));
    newChannel->setObjectName(QStringLiteral("newChannelAction"));
    connect(newChannel, &QAction::triggered, this, [this] {
        if (auto *button =
                m_channels->findChild<QAbstractButton *>(QStringLiteral("createChannelButton")))
            button->click();
    });
    fileMenu->addSeparator();
    new CanvasFileActions(m_canvas, fileMenu, this); // import, export, print
    fileMenu->addSeparator();
    auto *identity = fileMenu->addAction(tr("&Identity…"));
    identity->setObjectName(QStringLiteral("identityAction"));
    connect(identity, &QAction::triggered, this, &MainWindow::showIdentity);
    auto *settings = fileMenu->addAction(style()->standardIcon(QStyle::SP_FileDialogDetailedView),
                                         tr("&Settings…"));
    settings->setObjectName(QStringLiteral("settingsAction"));
    settings->setShortcut(QKeySequence::Preferences);
    connect(settings, &QAction::triggered, this, &MainWindow::showSettings);
    fileMenu->addSeparator();
    auto *quit = fileMenu->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    auto *canvasMenu = menuBar()->addMenu(tr("&Canvas"));
    m_editAction = canvasMenu->addAction(editIcon(this), tr("&Edit"));
    m_editAction->setObjectName(QStringLiteral("editAction"));
    m_editAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    // Checked while editing; it keeps its name (renaming it "View" clashed with the View menu and
    // told a screen reader nothing). toggled, not triggered, so AT-SPI's toggle works too.
    m_editAction->setCheckable(true);
    connect(m_editAction, &QAction::toggled, this, [this](bool on) {
        if (on != m_canvas->isEditing())
            m_canvas->toggleEditing();
        updateActions(); // leaving may ask first: the check shows what really happened
    });
    m_saveAction =
        canvasMenu->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"));
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, m_canvas, &CanvasPane::save);
    m_cancelAction = canvasMenu->addAction(tr("&Cancel Editing / Close Message"));
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancelAction, &QAction::triggered, m_canvas, &CanvasPane::cancel);
    m_reloadAction =
        canvasMenu->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload"));
    m_reloadAction->setObjectName(QStringLiteral("reloadAction"));
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    m_reloadAction->setToolTip(
        UiFormat::withShortcut(tr("Reload the canvas"), m_reloadAction->shortcut()));
    connect(m_reloadAction, &QAction::triggered, this, [this] {
        m_canvas->reload();
        m_history->reload(); // F5 refreshes what History lists too
        m_channels->refresh(); // and the channel list (channels made by others appear)
        if (m_services.profiles)
            m_services.profiles->refresh(); // and people's names (set or changed since)
    });

    auto *viewMenu = menuBar()->addMenu(tr("&View"));
    m_historyAction = viewMenu->addAction(tr("&History"));
    m_historyAction->setObjectName(QStringLiteral("historyAction"));
    m_historyAction->setCheckable(true);
    m_historyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    m_historyAction->setToolTip(
        UiFormat::withShortcut(tr("Show or hide History"), m_historyAction->shortcut()));
    m_searchAction = viewMenu->addAction(tr("&Search"));
    m_searchAction->setObjectName(QStringLiteral("searchAction"));
    // Ctrl+F is the editor's find bar while the editor has focus; Ctrl+Shift+F always searches.
    m_searchAction->setShortcuts(
        {QKeySequence(QKeySequence::Find), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)});
    m_searchAction->setToolTip(
        UiFormat::withShortcut(tr("Search canvases and people"), m_searchAction->shortcut()));
    m_previewAction = viewMenu->addAction(tr("Live &Preview While Editing"));
    m_previewAction->setObjectName(QStringLiteral("previewAction"));
    m_previewAction->setCheckable(true);
    m_previewAction->setChecked(true);
    connect(m_previewAction, &QAction::toggled, this,
            [this](bool on) { m_canvas->editor()->setPreviewVisible(on); });
    addSpellingAction(viewMenu, m_services.spelling, m_canvas->editor(), m_settings);
    auto *outline = viewMenu->addAction(tr("Go to &Heading…"));
    outline->setObjectName(QStringLiteral("outlineAction"));
    outline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(outline, &QAction::triggered, this, [this] { CanvasOutline::open(m_canvas); });
    auto *switcher = viewMenu->addAction(tr("Switch &Channel…"));
    switcher->setObjectName(QStringLiteral("channelSwitcherAction"));
    switcher->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(switcher, &QAction::triggered, this,
            [this] { m_switcher->open(this, m_canvas->channelId()); });
    viewMenu->addSeparator();

    auto *help = menuBar()->addMenu(tr("&Help"));
    auto *shortcuts = help->addAction(tr("&Keyboard Shortcuts"));
    shortcuts->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    connect(shortcuts, &QAction::triggered, this, [this] {
        auto *dialog = new ShortcutsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    auto *about = help->addAction(tr("&About Buzz Canvas"));
    about->setObjectName(QStringLiteral("aboutAction"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Buzz Canvas"),
                           tr("<b>Buzz Canvas</b> %1<br>Edit the shared Markdown "
                              "canvas of Buzz channels.<br>"
                              "Saves are compare-and-swap and verified; nothing is "
                              "overwritten silently.")
                               .arg(QCoreApplication::applicationVersion()));
    });

    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_editAction);
    toolbar->addAction(m_saveAction);
    toolbar->addAction(m_reloadAction);
    toolbar->addSeparator();
    toolbar->addAction(m_historyAction);
    toolbar->addAction(m_searchAction);
}

void MainWindow::createDocks()
{
    const auto dock = [this](const QString &name, const QString &title, QWidget *content,
                             Qt::DockWidgetArea area) {
        auto *widget = new QDockWidget(title, this);
        widget->setObjectName(name);
        widget->setAccessibleName(title);
        widget->setWidget(content);
        addDockWidget(area, widget);
        return widget;
    };
    m_channelsDock =
        dock(QStringLiteral("channelsDock"), tr("Channels"), m_channels, Qt::LeftDockWidgetArea);
    m_channelsDock->setFeatures(QDockWidget::DockWidgetMovable);
    m_historyDock =
        dock(QStringLiteral("historyDock"), tr("History"), m_history, Qt::RightDockWidgetArea);
    m_searchDock =
        dock(QStringLiteral("searchDock"), tr("Search"), m_search, Qt::LeftDockWidgetArea);
    m_diagnosticsDock = dock(QStringLiteral("diagnosticsDock"), tr("Diagnostics"), m_diagnostics,
                             Qt::BottomDockWidgetArea);
    m_historyDock->hide();
    m_searchDock->hide();
    m_diagnosticsDock->hide();
    resizeDocks({m_channelsDock, m_historyDock}, {230, 360}, Qt::Horizontal);

    // toggled, not triggered: a screen reader or AT-SPI toggles the checkable toolbar button,
    // which checks the action without triggering it.
    connect(m_historyAction, &QAction::toggled, this, [this](bool on) {
        if (on == m_historyDock->isVisible())
            return;
        m_historyDock->setVisible(on);
        if (on)
            m_historyDock->raise();
    });
    connect(m_historyDock, &QDockWidget::visibilityChanged, this,
            [this] { m_historyAction->setChecked(m_historyDock->isVisible()); });
    connect(m_searchAction, &QAction::triggered, this, [this] {
        m_searchDock->show();
        m_searchDock->raise();
        m_search->focusQuery();
    });
    auto *viewMenu = menuBar()->actions().at(2)->menu();
    QAction *diagnostics = m_diagnosticsDock->toggleViewAction();
    diagnostics->setObjectName(QStringLiteral("diagnosticsAction"));
    diagnostics->setText(tr("&Diagnostics"));
    viewMenu->addAction(diagnostics);
    QAction *channels = m_channelsDock->toggleViewAction();
    channels->setObjectName(QStringLiteral("channelsAction"));
    viewMenu->addAction(channels);
}

void MainWindow::createStatusBar()
{
    m_relayStatus = new QLabel(this);
    m_relayStatus->setObjectName(QStringLiteral("relayStatusLabel"));
    // Status labels are named by what they show (a QLabel's accessible name is its text, and a
    // change is announced); the description says what they are, for automation to find them.
    m_relayStatus->setAccessibleDescription(tr("Relay status"));
    m_relayRetry = new QToolButton(this);
    m_relayRetry->setObjectName(QStringLiteral("relayRetryButton"));
    m_relayRetry->setAccessibleName(tr("Connect to the relay again"));
    m_relayRetry->setAutoRaise(true);
    connect(m_relayRetry, &QToolButton::clicked, m_connectionStatus, &ConnectionStatus::act);
    m_liveStatus = new QLabel(this);
    m_liveStatus->setObjectName(QStringLiteral("liveStatusLabel"));
    m_liveStatus->setAccessibleDescription(tr("Live updates"));
    m_identityButton = new QToolButton(this);
    m_identityButton->setObjectName(QStringLiteral("identityButton"));
    m_identityButton->setAccessibleName(tr("Identity"));
    m_identityButton->setAutoRaise(true);
    m_identityButton->setToolTip(tr("Your identity — click to manage it"));
    connect(m_identityButton, &QToolButton::clicked, this, &MainWindow::showIdentity);
    m_saveState = new QLabel(this);
    m_saveState->setObjectName(QStringLiteral("saveStateLabel"));
    m_saveState->setAccessibleDescription(tr("Save state"));
    statusBar()->addWidget(m_relayStatus, 1);
    statusBar()->addWidget(m_relayRetry);
    statusBar()->addPermanentWidget(m_liveStatus);
    statusBar()->addPermanentWidget(m_saveState);
    statusBar()->addPermanentWidget(m_identityButton);
}

void MainWindow::createConnectionBanner()
{
    // Above the canvas and outside it: the connection is the window's, not one canvas's.
    m_connectionBanner = new NoticeBanner(QStringLiteral("connectionBanner"), this);
    m_connectionBanner->setAccessibleName(tr("Relay connection"));
    m_connectionBanner->setClosable(false); // it leaves by itself once connected
    m_connectionBanner->setPurpose(tr("connection notice"));
    connect(m_connectionBanner->addAction(QStringLiteral("Retry"), tr("Retry now")),
            &QPushButton::clicked, m_connectionStatus, &ConnectionStatus::act);
    connect(m_connectionBanner->addAction(QStringLiteral("Reconnect"), tr("Reconnect")),
            &QPushButton::clicked, m_connectionStatus, &ConnectionStatus::act);
    connect(m_connectionBanner->addAction(QStringLiteral("Identity"), tr("Identity…")),
            &QPushButton::clicked, this, &MainWindow::showIdentity);
    connect(m_connectionBanner->addAction(QStringLiteral("Settings"), tr("Settings…")),
            &QPushButton::clicked, this, &MainWindow::showSettings);
    auto *centre = new QWidget(this);
    auto *layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // A layout of hidden widgets takes no room: no gap above the canvas while connected.
    auto *bannerRow = new QHBoxLayout;
    bannerRow->setContentsMargins(10, 8, 10, 0);
    bannerRow->addWidget(m_connectionBanner);
    layout->addLayout(bannerRow);
    layout->addWidget(m_canvas, 1);
    setCentralWidget(centre);
}

void MainWindow::onConnectionRecovered()
{
    // Back after trouble: what failed meanwhile (channel list, canvas, history) is read again, so
    // no error banner outlives the outage. Live subscriptions catch up by themselves.
    m_relayProblem.clear();
    m_channels->refresh();
    if (!m_canvas->channelId().isEmpty()) {
        m_canvas->reload();
        m_history->reload();
    }
    updateRelayStatus();
}

void MainWindow::start(const QString &firstChannelName)
{
    // The channel open when the app was last closed opens again (if the relay still lists it).
    if (m_settings) {
        const QString last = m_settings->value(QLatin1String(kLastChannelKey)).toString();
        if (!last.isEmpty())
            m_channels->selectChannel(last);
    }
    m_channels->refresh(firstChannelName);
}

void MainWindow::fitToScreen()
{
    // A layout saved on a bigger monitor, or the 1280×800 default on a small one, must not put
    // the window (and its title bar) beyond the screen.
    const QScreen *screen = this->screen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    const QSize size = this->size().boundedTo(available.size());
    if (size != this->size())
        resize(size);
    QPoint at = pos();
    at.setX(qBound(available.left(), at.x(), available.right() + 1 - size.width()));
    at.setY(qBound(available.top(), at.y(), available.bottom() + 1 - size.height()));
    if (at != pos())
        move(at);
}

void MainWindow::openChannel(const QString &channelId)
{
    m_channels->selectChannel(channelId);
}

void MainWindow::onChannelActivated(const canvas::ChannelInfo &channel)
{
    if (channel.id == m_canvas->channelId()) {
        m_canvas->updateChannel(channel);
        return;
    }
    m_canvas->openChannel(channel); // its new session reaches History through sessionOpened
    if (m_settings)
        m_settings->setValue(QLatin1String(kLastChannelKey), channel.id);
    m_switcher->remember(channel.id);
    m_connectionStatus->setChannel(channel.id);
    updateTitle();
    updateActions();
}

void MainWindow::onRelayProblem(const client::RelayError &error)
{
    m_relayProblem = error.longText();
    updateRelayStatus();
}

void MainWindow::updateRelayStatus()
{
    const QString state = m_connectionStatus->stateText();
    m_relayStatus->setText(tr("%1 · %2").arg(m_services.relayLabel, state));
    QString tooltip = m_services.connection->relayUrl().toString();
    for (const QString &line : {m_connectionStatus->detailText(), m_relayProblem}) {
        if (!line.isEmpty())
            tooltip += QLatin1Char('\n') + line;
    }
    m_relayStatus->setToolTip(tooltip);
    m_relayRetry->setText(m_connectionStatus->actionLabel());
    m_relayRetry->setVisible(m_connectionStatus->action() != ConnectionStatus::Action::None);
    m_liveStatus->setText(m_connectionStatus->liveText());

    if (!m_connectionStatus->bannerVisible()) {
        m_connectionBanner->hide();
        return;
    }
    const auto action = m_connectionStatus->action();
    const bool rejected = action == ConnectionStatus::Action::Reconnect;
    m_connectionBanner->showMessage(state, m_connectionStatus->bannerTone(),
                                    m_connectionStatus->detailText());
    m_connectionBanner->setActionVisible(QStringLiteral("Retry"),
                                         action == ConnectionStatus::Action::RetryNow);
    m_connectionBanner->setActionVisible(QStringLiteral("Reconnect"), rejected);
    m_connectionBanner->setActionVisible(QStringLiteral("Identity"), rejected);
    m_connectionBanner->setActionVisible(QStringLiteral("Settings"), true);
}

void MainWindow::updateIdentityStatus()
{
    // The name others see when there is one, else the short npub (the tooltip has the npub).
    const auto own = m_services.profiles && m_services.identity->hasKey()
        ? m_services.profiles->profile(m_services.identity->publicKeyHex())
        : std::nullopt;
    if (!own && m_services.profiles && m_services.identity->hasKey())
        m_services.profiles->request({m_services.identity->publicKeyHex()});
    m_identityButton->setText(!m_services.identity->hasKey() ? tr("No identity")
                                  : own && !own->displayName.isEmpty()
                                  ? own->displayName
                                  : m_services.identity->shortNpub());
    m_identityButton->setToolTip(
        tr("%1\nStored in: %2")
            .arg(m_services.identity->npub(), m_services.identity->storageDescription()));
}

void MainWindow::updateTitle()
{
    QString title;
    if (!m_canvas->channelId().isEmpty())
        title = QStringLiteral("#") + m_canvas->channel().name;
    setWindowModified(m_canvas->isEditedSinceBase()); // cheap: this runs as the user types
    setWindowTitle(title.isEmpty() ? tr("Buzz Canvas")
                                   : title + QStringLiteral("[*] — ") + tr("Buzz Canvas"));
}

void MainWindow::updateActions()
{
    const bool open = !m_canvas->channelId().isEmpty();
    const auto *session = m_canvas->session();
    const bool canEdit = open && m_canvas->channel().canEditCanvas() && m_canvas->isHeadKnown()
        && session && session->state() == canvas::CanvasSession::State::Viewing;
    m_editAction->setEnabled(canEdit || m_canvas->isEditing());
    m_editAction->setChecked(m_canvas->isEditing());
    m_editAction->setToolTip(
        UiFormat::withShortcut(m_canvas->isEditing() ? tr("Leave editing") : tr("Edit the canvas"),
                               m_editAction->shortcut()));
    m_saveAction->setToolTip(
        UiFormat::withShortcut(tr("Save the canvas"), m_saveAction->shortcut()));
    m_saveAction->setEnabled(m_canvas->isEditing());
    m_reloadAction->setEnabled(open);
}

void MainWindow::setRelaySettings(const SettingsDialog::Values &values, const QString &overrideNote)
{
    m_relaySettings = values;
    m_relayOverrideNote = overrideNote;
}

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_relaySettings, m_relayOverrideNote, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const SettingsDialog::Values values = dialog->values();
        if (values.embedded == m_relaySettings.embedded
            && values.relayUrl == m_relaySettings.relayUrl)
            return;
        m_relaySettings = values;
        m_canvas->flushDraft();
        emit relaySettingsChanged(values);
    });
    dialog->open();
}

void MainWindow::showIdentity()
{
    auto *dialog = new IdentityDialog(m_services.identity, m_services.profiles, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_canvas->flushDraft(); // unsaved text survives quitting; it is offered at the next start
    if (m_settings) {
        m_settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
        m_settings->setValue(QStringLiteral("window/state"), saveState());
    }
    event->accept();
}

} // namespace buzz::ui
