#pragma once

#include <QTimer>

#include <qcoro/qcorotask.h>
#include <qcoro/qcorotimer.h>

#include <chrono>

namespace buzz::client {

// Resumes when `sender` emits `signal` or when `timeout` has passed, whichever comes first, and
// answers whether the signal came. The caller acts on a timeout (aborts the reply, gives up on the
// keychain job) after this returns.
//
// Not QCoro 0.8's own timeout overloads (qCoro(reply).waitForFinished(t), qCoro(obj, signal, t)):
// their awaiter listens with a queued connection whose slot points into the coroutine frame, and a
// disconnect does not withdraw a call already queued. When the signal is queued just as the timer
// fires (a reply finishing at its timeout, or the abort() that follows a timeout), the frame is
// gone by the time the queued call runs, which then stops a freed QTimer: a use after free, seen
// as a crash under load. Here the only object the coroutine waits on is a timer in this frame:
// the signal restarts it at zero, the timeout simply lets it run out, and every connection dies
// with it, queued calls included.
//
// A sender destroyed before it signalled never resumes the waiter, as with QCoro's own awaiters
// (their timeout is connected in the sender's context): the sender's owner is gone (an HttpBridge
// closed with its request in flight deletes the reply), and what follows the wait would use it.
//
// The gate is awaited as a timer (QCoro's QTimer awaiter: a direct connection to a lambda without
// arguments), not as qCoro(&gate, &QTimer::timeout): that one forwards the signal's arguments to a
// generic lambda through a queued call, and QTimer::timeout's only argument, the QPrivateSignal
// tag, arrives there as a null pointer bound to a reference, which is undefined behaviour that
// UBSan stops every HTTP request on (.ci/sanitized-suites, test_client_signal_within).
template<class Sender, class Signal>
QCoro::Task<bool> signalWithin(Sender *sender, Signal signal, std::chrono::milliseconds timeout)
{
    QTimer gate;
    gate.setSingleShot(true);
    bool emitted = false;
    QObject::connect(sender, signal, &gate, [&gate, &emitted] {
        emitted = true;
        gate.start(0);
    });
    QObject::connect(sender, &QObject::destroyed, &gate, [&gate, &emitted] {
        if (!emitted)
            gate.stop();
    });
    gate.start(timeout);
    co_await gate;
    co_return emitted;
}

} // namespace buzz::client
