#include "app/desktop/DesktopSession.h"

#include "app/desktop/EmbeddedRelay.h"
#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"
#include "canvas/ChannelService.h"
#include "canvas/ChannelWatch.h"
#include "canvas/DraftStore.h"
#include "canvas/Identity.h"
#include "canvas/LastSeenRevisions.h"
#include "canvas/PresenceService.h"
#include "canvas/ProfileCache.h"
#include "canvas/SearchClient.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestJournal.h"
#include "ui/CanvasPane.h"
#include "ui/DiagnosticsPanel.h"
#include "ui/MainWindow.h"
#include "ui/SpellChecker.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QLocale>
#include <QLockFile>
#include <QLoggingCategory>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#ifdef __GLIBC__
#include <malloc.h>
#endif

Q_LOGGING_CATEGORY(lcSession, "buzz.desktop.session")

namespace buzz::desktop {

namespace {
const QString kRelayModeKey = QStringLiteral("relay/mode"); // "embedded" | "remote"
const QString kRelayUrlKey = QStringLiteral("relay/url");

// glibc gives threads malloc arenas of their own, up to 8 per core, and each keeps the memory its
// thread freed (up to 2× the largest block freed, as its trim threshold grows). The embedded
// relay's worker pool (up to 16 threads) spreads the start-up requests (channels, their live
// watches, profiles, the canvas) over several threads, and each that handled a 250 KiB canvas
// kept about 1.2 MB: app_bench's peak RSS grew 2-3 MB when the app began asking for more at start.
// Two arenas serve one user's UI and relay without contention worth measuring (small blocks come
// from each thread's tcache without a lock). Set before any thread of the session starts.
void limitMallocArenas()
{
#ifdef __GLIBC__
    static const bool once = [] {
        return mallopt(M_ARENA_MAX, 2) == 1;
    }();
    Q_UNUSED(once);
#endif
}
} // namespace

DesktopSession::DesktopSession(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    limitMallocArenas();
    if (m_options.profileDir) {
        m_dataDir = *m_options.profileDir;
        m_settings = std::make_unique<QSettings>(
            QDir(m_dataDir).filePath(QStringLiteral("buzz-canvas.ini")), QSettings::IniFormat);
    } else {
        m_dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        m_settings = std::make_unique<QSettings>();
    }
}

DesktopSession::~DesktopSession()
{
    teardown();
}

QString DesktopSession::relayUrl() const
{
    return m_services.connection ? m_services.connection->relayUrl().toString() : QString();
}

QCoro::Task<bool> DesktopSession::start()
{
    if (!QDir().mkpath(m_dataDir)) {
        m_error = tr("Cannot create the data directory %1").arg(m_dataDir);
        co_return false;
    }
    if (!m_lock) {
        // Two apps on one profile would write the same drafts, settings and embedded relay
        // store. QLockFile takes over a lock whose process is gone (a crash), never a live one.
        auto lock = std::make_unique<QLockFile>(
            QDir(m_dataDir).filePath(QStringLiteral("buzz-canvas.lock")));
        lock->setStaleLockTime(0);
        if (!lock->tryLock(0)) {
            qint64 pid = 0;
            QString host;
            QString app;
            lock->getLockInfo(&pid, &host, &app);
            m_error = lock->error() == QLockFile::LockFailedError
                ? tr("Buzz Canvas is already running with this profile (%1, process %2 on %3). "
                     "Switch to that window, or start with --profile DIR for another identity.")
                      .arg(QDir::toNativeSeparators(m_dataDir))
                      .arg(pid)
                      .arg(host)
                : tr("Cannot lock the profile %1 (check its permissions).")
                      .arg(QDir::toNativeSeparators(m_dataDir));
            co_return false;
        }
        m_lock = std::move(lock);
    }

    // Which relay: --relay / BUZZ_RELAY_URL, else Settings, else the embedded one.
    QString remote;
    if (m_options.relayUrl)
        remote = *m_options.relayUrl;
    else if (m_settings->value(kRelayModeKey).toString() == QLatin1String("remote"))
        remote = m_settings->value(kRelayUrlKey).toString();

    QUrl url;
    if (!remote.isEmpty()) {
        url = client::RelayConnection::parseRelayUrl(remote);
        if (url.isEmpty()) {
            m_error = tr("Not a relay address: %1").arg(remote);
            co_return false;
        }
    } else {
        m_relay = std::make_unique<EmbeddedRelay>();
        if (!m_relay->start(QDir(m_dataDir).filePath(QStringLiteral("relay")))) {
            m_error = tr("The embedded relay could not start: %1").arg(m_relay->errorString());
            m_relay.reset();
            co_return false;
        }
        url = QUrl(m_relay->url());
    }

    m_serviceOwner = new QObject(this);
    // A profile is one person: its key lives in the profile, never in the shared system keychain.
    auto *identity =
        new canvas::Identity(m_dataDir,
                             m_options.profileDir ? canvas::Identity::KeychainUse::Never
                                                  : canvas::Identity::KeychainUse::Try,
                             m_serviceOwner);
    const QPointer<QObject> owner = m_serviceOwner;
    const bool loaded = co_await identity->load(qgetenv("BUZZ_PRIVATE_KEY"));
    if (!owner)
        co_return false;
    if (!loaded) {
        qCInfo(lcSession) << "no identity yet: generating one";
        co_await identity->generate();
        if (!owner)
            co_return false;
    }

    // The identity's signer is the connection's: a new key re-authenticates the open socket.
    auto *connection = new client::RelayConnection(url, identity->signer(), m_serviceOwner);
    if (m_options.connectionTiming)
        connection->socket()->setTiming(*m_options.connectionTiming);

    // Diagnostics survive a restart: every request and frame also goes to a rotating JSON Lines
    // file in the profile (README.md "Diagnostics (QA)").
    auto *journal = new client::RequestJournal(
        connection->requestLog(), QDir(m_dataDir).filePath(QStringLiteral("logs/requests.jsonl")),
        client::RequestJournal::kDefaultMaxBytes, client::RequestJournal::kDefaultRotations,
        m_serviceOwner);
    const bool journalKept = journal->open({QCoreApplication::applicationVersion(), url.toString(),
                                            identity->npub(), QDateTime::currentDateTimeUtc()});
    if (!journalKept)
        qCWarning(lcSession) << "request journal not kept:" << journal->errorString();

    m_services.connection = connection;
    m_services.identity = identity;
    m_services.canvas = new canvas::CanvasService(connection, m_serviceOwner);
    m_services.canvasWatch = new canvas::CanvasWatch(connection, m_services.canvas, m_serviceOwner);
    m_services.channels = new canvas::ChannelService(connection, m_serviceOwner);
    m_services.channelWatch = new canvas::ChannelWatch(connection, m_serviceOwner);
    m_services.search = new canvas::SearchClient(connection, m_serviceOwner);
    m_services.profiles = new canvas::ProfileCache(connection, m_serviceOwner);
    m_services.drafts =
        new canvas::DraftStore(QDir(m_dataDir).filePath(QStringLiteral("drafts")), m_serviceOwner);
    // Spell checking in the UI's language (Translations set the default locale), with the words
    // the user added kept in the profile.
    if (const auto dictionary = ui::SpellChecker::findDictionary(
            ui::SpellChecker::systemDictionaryDirs(), QLocale().name()))
        m_services.spelling = new ui::SpellChecker(
            *dictionary, QDir(m_dataDir).filePath(QStringLiteral("dictionary.txt")),
            m_serviceOwner);
    else
        qCInfo(lcSession) << "no Hunspell dictionary installed: spell checking is off";
    m_services.presence = new canvas::PresenceService(connection, m_serviceOwner);
    m_services.embeddedRelay = m_relay != nullptr;
    m_services.relayLabel = m_relay ? tr("Embedded relay") : url.toString();
    // The embedded relay gets a new port every run; its drafts are keyed by its data instead.
    m_services.draftRelayKey = m_relay ? QStringLiteral("embedded") : url.toString();
    m_services.draftCommunity = m_relay ? QStringLiteral("local") : connection->communityHost();
    m_lastSeen = std::make_unique<canvas::LastSeenRevisions>(
        m_settings.get(), m_services.draftRelayKey + QLatin1Char('|') + m_services.draftCommunity);
    m_services.lastSeen = m_lastSeen.get();

    m_window = new ui::MainWindow(m_services, m_settings.get());
    m_window->setAttribute(Qt::WA_DeleteOnClose, false);
    if (journalKept)
        m_window->diagnosticsPanel()->setJournalPath(journal->path());
    ui::SettingsDialog::Values values;
    values.embedded = m_settings->value(kRelayModeKey).toString() != QLatin1String("remote");
    values.relayUrl = m_settings->value(kRelayUrlKey).toString();
    m_window->setRelaySettings(
        values,
        m_options.relayUrl
            ? tr("Currently overridden by %1 (%2).").arg(m_options.relaySource, *m_options.relayUrl)
            : QString());
    connect(m_window, &ui::MainWindow::relaySettingsChanged, this,
            &DesktopSession::applyRelaySettings);
    connect(m_window->canvasPane(), &ui::CanvasPane::canvasShown, this, [this] {
        if (m_firstShown)
            return;
        m_firstShown = true;
        emit firstCanvasShown();
    });
    if (m_options.showWindow)
        m_window->show();
    // The socket is the connection state the window shows, and it retries by itself while the
    // relay is down; open it now, not when the first canvas is watched.
    connection->socket()->open();
    m_window->start(m_relay ? m_options.firstChannelName : QString());
    emit started();
    co_return true;
}

void DesktopSession::applyRelaySettings(const ui::SettingsDialog::Values &values)
{
    m_settings->setValue(kRelayModeKey,
                         values.embedded ? QStringLiteral("embedded") : QStringLiteral("remote"));
    m_settings->setValue(kRelayUrlKey, values.relayUrl);
    m_settings->sync();
    if (m_options.relayUrl)
        return; // --relay / BUZZ_RELAY_URL still wins for this run
    QTimer::singleShot(0, this, [this] { restart(); });
}

QCoro::Task<bool> DesktopSession::restart()
{
    teardown();
    m_firstShown = false;
    co_return co_await start();
}

void DesktopSession::teardown()
{
    // "offline" first, while the connection is still up: the others see us leave at once instead
    // of 90 s later (docs/buzz-protocol.md §Presence and typing).
    if (m_services.presence)
        m_services.presence->goOffline();
    if (m_window) {
        m_window->close(); // saves the layout and flushes drafts
        delete m_window;
        m_window = nullptr;
    }
    if (m_services.drafts)
        m_services.drafts->flush();
    delete m_serviceOwner;
    m_serviceOwner = nullptr;
    m_services = {};
    m_lastSeen.reset();
    if (m_relay) {
        m_relay->stop();
        m_relay.reset();
    }
}

} // namespace buzz::desktop
