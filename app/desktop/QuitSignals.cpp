#include "app/desktop/QuitSignals.h"

#include <QLoggingCategory>
#include <QSocketNotifier>

#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcQuitSignals, "buzz.desktop.signals")

namespace buzz::desktop {

namespace {

constexpr std::array<int, 3> kQuitSignals {SIGTERM, SIGINT, SIGHUP};
int g_pipe[2] = {-1, -1}; // [0] read by the event loop, [1] written by the handler

extern "C" void onQuitSignal(int signalNumber)
{
    // Async-signal-safe only: write(2), and errno kept for the interrupted code.
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t written = ::write(g_pipe[1], &byte, 1);
    errno = savedErrno;
}

} // namespace

QuitSignals::QuitSignals(QObject *parent)
    : QObject(parent)
{
    if (g_pipe[0] >= 0) {
        qCWarning(lcQuitSignals) << "quit signals are already watched";
        return;
    }
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_pipe) != 0) {
        qCWarning(lcQuitSignals) << "cannot watch quit signals: no socket pair";
        g_pipe[0] = g_pipe[1] = -1;
        return;
    }
    // The handler must never block on a full pipe.
    ::fcntl(g_pipe[1], F_SETFL, ::fcntl(g_pipe[1], F_GETFL) | O_NONBLOCK);
    m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &QuitSignals::onReadable);
    struct sigaction action
    {
    };
    action.sa_handler = onQuitSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int signalNumber : kQuitSignals)
        ::sigaction(signalNumber, &action, nullptr);
}

QuitSignals::~QuitSignals()
{
    if (!m_notifier)
        return; // another instance owns the handlers
    for (int signalNumber : kQuitSignals)
        ::signal(signalNumber, SIG_DFL);
    delete m_notifier;
    m_notifier = nullptr;
    ::close(g_pipe[0]);
    ::close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

void QuitSignals::onReadable()
{
    unsigned char byte = 0;
    if (::read(g_pipe[0], &byte, 1) != 1)
        return;
    const int signalNumber = byte;
    // The next one of the same kind ends the process the usual way, should quitting hang.
    ::signal(signalNumber, SIG_DFL);
    qCInfo(lcQuitSignals) << "signal" << signalNumber << "received: saving drafts and quitting";
    emit quitRequested(signalNumber);
}

} // namespace buzz::desktop
