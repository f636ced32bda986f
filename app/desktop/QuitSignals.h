#pragma once

#include <QObject>

class QSocketNotifier;

namespace buzz::desktop {

// SIGTERM, SIGINT and SIGHUP (a desktop session ending, Ctrl+C, a terminal closing) are a normal
// quit, not a crash: the app writes the open canvas's draft and its settings first. A signal
// handler may do almost nothing, so it only writes the signal's number into a socket pair (the
// self-pipe); a QSocketNotifier reads it on the event loop and emits quitRequested, where the
// usual quit path runs. A second signal of the same kind while quitting ends the process at once
// (the default action is restored after the first), so a hung quit can still be interrupted.
class QuitSignals : public QObject
{
    Q_OBJECT
public:
    explicit QuitSignals(QObject *parent = nullptr);
    ~QuitSignals() override; // the default actions come back

    bool isInstalled() const { return m_notifier != nullptr; }

signals:
    void quitRequested(int signalNumber);

private:
    void onReadable();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace buzz::desktop
