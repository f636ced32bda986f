#pragma once

#include "app/desktop/DesktopSession.h"
#include "app/desktop/EmbeddedRelay.h"

#include <QApplication>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QWidget>

#include <memory>
#include <optional>

#include <qcoro/qcorotask.h>
#include <vector>

namespace buzz::ui {
class MainWindow;
class CanvasPane;
} // namespace buzz::ui

namespace buzz::test {

class RecordingProxy;

// QCoro::waitFor needs a default-constructible result (Result<T> is not): run the task in a local
// event loop and hand back its value.
template<class T>
T awaitTask(QCoro::Task<T> task)
{
    std::optional<T> result;
    QEventLoop loop;
    auto guard = std::make_unique<QObject>();
    QCoro::connect(std::move(task), guard.get(), [&](T value) {
        result.emplace(std::move(value));
        loop.quit();
    });
    if (!result)
        loop.exec();
    return std::move(*result);
}

// Per-test fixture for the GUI suites: a relay on 127.0.0.1:0 (the relay library, in-process, as
// the app embeds it) and any number of app sessions, each with its own --profile directory (its
// own identity, settings and drafts), all driving real MainWindows.
class UiTestHarness
{
public:
    UiTestHarness();
    ~UiTestHarness();

    bool isValid() const { return m_root.isValid(); }
    QString root() const { return m_root.path(); }

    // The shared relay (in memory). Started on first use, or by startRelay with read replicas.
    desktop::EmbeddedRelay *relay();
    bool startRelay(int replicas, qint64 readBudgetMs);
    // The relay behind a RecordingProxy (tests/canvas): sessions talk to the proxy, which can
    // drop, hold or lose requests and answers (a frozen relay, a lost response).
    bool startProxiedRelay();
    RecordingProxy *proxy() const { return m_proxy.get(); }
    QString relayUrl();

    // A session on the shared relay with profile `<root>/<profile>`; started and shown.
    desktop::DesktopSession *openSession(const QString &profile);
    // A session on any relay URL (a test proxy), optionally with shorter connection timings.
    desktop::DesktopSession *
    openSessionOn(const QString &profile, const QString &relayUrl,
                  std::optional<client::RelaySocket::Timing> timing = std::nullopt);
    // A first-run session: no relay configured, so it embeds its own relay in the profile.
    desktop::DesktopSession *openEmbeddedSession(const QString &profile);
    void closeSession(desktop::DesktopSession *session);

    // Creates a channel through the channel list and waits until its canvas is open.
    static bool createChannel(desktop::DesktopSession *session, const QString &name);
    // Waits until `session` shows the channel `channelId` with a known head.
    static bool openChannel(desktop::DesktopSession *session, const QString &channelId);
    static bool waitCanvasReady(ui::CanvasPane *pane, int timeoutMs = 10000);
    // Waits until the save just asked for has landed and nothing typed is unsaved (the editor
    // stays open after a save).
    static bool waitSaved(ui::CanvasPane *pane, int timeoutMs = 10000);
    // Saves `text` through the service directly (fixture data, not the behaviour under test).
    static bool seedRevision(desktop::DesktopSession *session, const QString &text);

    // A visible top-level widget (dialog) with this objectName, waiting up to `timeoutMs`.
    static QWidget *waitForTopLevel(const QString &objectName, int timeoutMs = 10000);
    static bool activate(QWidget *window);

private:
    desktop::DesktopSession *startSession(desktop::DesktopSession::Options options);

    QTemporaryDir m_root;
    std::unique_ptr<RecordingProxy> m_proxy;
    std::unique_ptr<desktop::EmbeddedRelay> m_relay;
    std::vector<std::unique_ptr<desktop::DesktopSession>> m_sessions;
};

} // namespace buzz::test
