#include "UiTestHarness.h"

#include "RecordingProxy.h"

#include "canvas/CanvasService.h"
#include "ui/CanvasPane.h"
#include "ui/ChannelListPanel.h"
#include "ui/MainWindow.h"
#include "ui/models/ChannelListModel.h"

#include <QDir>
#include <QTest>

#include <qcoro/qcorotask.h>

namespace buzz::test {

UiTestHarness::UiTestHarness() = default;

UiTestHarness::~UiTestHarness()
{
    m_sessions.clear();
    if (m_relay)
        m_relay->stop();
    m_proxy.reset();
}

desktop::EmbeddedRelay *UiTestHarness::relay()
{
    if (!m_relay) {
        m_relay = std::make_unique<desktop::EmbeddedRelay>();
        if (!m_relay->start(QString())) {
            qWarning() << "relay failed:" << m_relay->errorString();
            m_relay.reset();
        }
    }
    return m_relay.get();
}

bool UiTestHarness::startRelay(int replicas, qint64 readBudgetMs)
{
    m_relay = std::make_unique<desktop::EmbeddedRelay>();
    if (!m_relay->start(QString(), replicas, readBudgetMs)) {
        qWarning() << "relay failed:" << m_relay->errorString();
        m_relay.reset();
        return false;
    }
    return true;
}

bool UiTestHarness::startProxiedRelay()
{
    m_proxy = std::make_unique<RecordingProxy>();
    if (!m_proxy->listen())
        return false;
    m_relay = std::make_unique<desktop::EmbeddedRelay>();
    m_relay->setAdvertisedUrl(QStringLiteral("ws://127.0.0.1:%1").arg(m_proxy->port()));
    if (!m_relay->start(QString())) {
        qWarning() << "relay failed:" << m_relay->errorString();
        m_relay.reset();
        return false;
    }
    m_proxy->setUpstreamPort(m_relay->port());
    return true;
}

QString UiTestHarness::relayUrl()
{
    if (m_proxy)
        return QStringLiteral("ws://127.0.0.1:%1").arg(m_proxy->port());
    return relay() ? relay()->url() : QString();
}

desktop::DesktopSession *UiTestHarness::startSession(desktop::DesktopSession::Options options)
{
    auto session = std::make_unique<desktop::DesktopSession>(std::move(options));
    const bool started = awaitTask(session->start());
    if (!started) {
        qWarning() << "session failed:" << session->errorString();
        return nullptr;
    }
    m_sessions.push_back(std::move(session));
    auto *result = m_sessions.back().get();
    activate(result->window());
    return result;
}

desktop::DesktopSession *UiTestHarness::openSession(const QString &profile)
{
    desktop::DesktopSession::Options options;
    options.profileDir = QDir(m_root.path()).filePath(profile);
    options.relayUrl = relayUrl();
    options.relaySource = QStringLiteral("--relay");
    return startSession(std::move(options));
}

desktop::DesktopSession *
UiTestHarness::openSessionOn(const QString &profile, const QString &relayUrl,
                             std::optional<client::RelaySocket::Timing> timing)
{
    desktop::DesktopSession::Options options;
    options.profileDir = QDir(m_root.path()).filePath(profile);
    options.relayUrl = relayUrl;
    options.relaySource = QStringLiteral("--relay");
    options.connectionTiming = timing;
    return startSession(std::move(options));
}

desktop::DesktopSession *UiTestHarness::openEmbeddedSession(const QString &profile)
{
    desktop::DesktopSession::Options options;
    options.profileDir = QDir(m_root.path()).filePath(profile);
    return startSession(std::move(options));
}

void UiTestHarness::closeSession(desktop::DesktopSession *session)
{
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
        if (it->get() == session) {
            m_sessions.erase(it);
            return;
        }
    }
}

bool UiTestHarness::waitCanvasReady(ui::CanvasPane *pane, int timeoutMs)
{
    return QTest::qWaitFor([pane] { return !pane->channelId().isEmpty() && pane->isHeadKnown(); },
                           timeoutMs);
}

bool UiTestHarness::createChannel(desktop::DesktopSession *session, const QString &name)
{
    canvas::CreateChannelRequest request;
    request.name = name;
    session->window()->channelList()->createChannel(request);
    auto *pane = session->window()->canvasPane();
    return QTest::qWaitFor(
        [pane, name] { return pane->channel().name == name && pane->isHeadKnown(); }, 10000);
}

bool UiTestHarness::openChannel(desktop::DesktopSession *session, const QString &channelId)
{
    auto *window = session->window();
    window->channelList()->refresh();
    if (!QTest::qWaitFor(
            [window, channelId] {
                return window->channelList()->model()->rowCount() > 0
                    && window->channelList()->model()->rowOf(channelId) >= 0;
            },
            10000))
        return false;
    window->openChannel(channelId);
    auto *pane = window->canvasPane();
    return QTest::qWaitFor(
        [pane, channelId] { return pane->channelId() == channelId && pane->isHeadKnown(); }, 10000);
}

bool UiTestHarness::waitSaved(ui::CanvasPane *pane, int timeoutMs)
{
    return QTest::qWaitFor(
        [pane] {
            const canvas::CanvasSession *session = pane->session();
            if (!session || session->isBusy() || pane->hasUnsavedChanges())
                return false;
            const auto &settled = session->lastSettled();
            return settled && settled->operation == canvas::CanvasSession::Operation::Save
                && settled->outcome.isDurable();
        },
        timeoutMs);
}

bool UiTestHarness::seedRevision(desktop::DesktopSession *session, const QString &text)
{
    auto *pane = session->window()->canvasPane();
    auto *service = session->services().canvas;
    auto head = awaitTask(service->head(pane->channelId(), canvas::ReadIntent::Strong));
    if (!head)
        return false;
    const auto outcome = awaitTask(service->save(pane->channelId(), head.value(), text));
    return outcome.isSaved();
}

QWidget *UiTestHarness::waitForTopLevel(const QString &objectName, int timeoutMs)
{
    QWidget *found = nullptr;
    [[maybe_unused]] const bool appeared = QTest::qWaitFor(
        [&] {
            for (QWidget *widget : QApplication::topLevelWidgets()) {
                if (widget->objectName() == objectName && widget->isVisible()) {
                    found = widget;
                    return true;
                }
            }
            return false;
        },
        timeoutMs);
    return found;
}

bool UiTestHarness::activate(QWidget *window)
{
    if (!window)
        return false;
    window->show();
    window->raise();
    window->activateWindow();
    QApplication::setActiveWindow(window);
    return QTest::qWaitForWindowActive(window, 5000);
}

} // namespace buzz::test
