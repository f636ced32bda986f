// client::signalWithin, the wait every HTTP request and keychain job uses (net/client/
// SignalWithin.h): it answers whether the signal came before the timeout ran out, and a signal
// that arrives together with the timeout, or after it, neither loses the answer nor touches a
// finished wait.

#include "net/client/SignalWithin.h"

#include <QEventLoop>
#include <QTest>

#include <qcoro/qcorotask.h>

#include <memory>
#include <optional>

using buzz::client::signalWithin;
using namespace std::chrono_literals;

namespace {

bool awaitBool(QCoro::Task<bool> task)
{
    std::optional<bool> result;
    QEventLoop loop;
    auto guard = std::make_unique<QObject>();
    QCoro::connect(std::move(task), guard.get(), [&](bool value) {
        result = value;
        loop.quit();
    });
    if (!result)
        loop.exec();
    return *result;
}

} // namespace

class TestClientSignalWithin : public QObject
{
    Q_OBJECT

private slots:
    void signalBeforeTheTimeoutIsReported()
    {
        QTimer source;
        source.setSingleShot(true);
        source.start(0);
        QVERIFY(awaitBool(signalWithin(&source, &QTimer::timeout, 60s)));
    }

    void silenceIsATimeout()
    {
        QObject silent;
        QVERIFY(!awaitBool(signalWithin(&silent, &QObject::objectNameChanged, 20ms)));
    }

    // The race that crashed the app under load: the reply finishes in the same event-loop pass in
    // which its timeout runs out (both timers here expire in one pass, the source first). QCoro
    // 0.8's own timeout overload resumed on the timeout and dropped the answer, then ran the
    // signal's queued call into the finished coroutine. The answer that came is the answer.
    void signalInTheSamePassAsTheTimeoutCounts()
    {
        for (int round = 0; round < 50; ++round) {
            QTimer source;
            source.setSingleShot(true);
            source.setTimerType(Qt::PreciseTimer);
            source.start(0);
            QVERIFY2(awaitBool(signalWithin(&source, &QTimer::timeout, 0ms)),
                     qPrintable(QString::number(round)));
        }
    }

    // A signal after the wait ended (the relay's answer arriving after the timeout) reaches
    // nothing: the wait's connections are gone with it, and the next wait on the same sender
    // hears only its own signal.
    void lateSignalIsHarmless()
    {
        QObject late;
        QVERIFY(!awaitBool(signalWithin(&late, &QObject::objectNameChanged, 10ms)));
        late.setObjectName(QStringLiteral("answered too late"));
        QCoreApplication::sendPostedEvents();
        QTimer::singleShot(0, &late, [&late] { late.setObjectName(QStringLiteral("answered")); });
        QVERIFY(awaitBool(signalWithin(&late, &QObject::objectNameChanged, 60s)));
        QCOMPARE(late.objectName(), QStringLiteral("answered"));
    }
};

QTEST_GUILESS_MAIN(TestClientSignalWithin)
#include "test_client_signal_within.moc"
