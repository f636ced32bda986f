// NetworkThreadMailbox: what the WebSocket sessions rely on when the writer thread hands them a
// group commit's OKs and fan-out notifications: every closure runs once, on the network thread, in
// the order it was posted; closures posted while the network thread is busy share one queued
// call; after close() nothing reaches a receiver that is going away.

#include "relay/server/NetworkThreadMailbox.h"

#include <QCoreApplication>
#include <QEvent>
#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <memory>
#include <thread>
#include <vector>

using buzz::relay::NetworkThreadMailbox;

namespace {

// Counts the queued calls that reach it.
class CountingReceiver : public QObject
{
public:
    int queuedCalls = 0;

    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::MetaCall)
            ++queuedCalls;
        return QObject::event(event);
    }
};

} // namespace

class TestServerMailbox : public QObject
{
    Q_OBJECT

private slots:
    void closuresRunOnTheReceiverThreadInPostOrder()
    {
        CountingReceiver receiver;
        auto mailbox = std::make_shared<NetworkThreadMailbox>(&receiver);
        constexpr int kClosures = 1000;
        std::vector<int> ran;
        bool allOnReceiverThread = true;
        QThread *const networkThread = QThread::currentThread();
        std::thread writer([&] {
            for (int i = 0; i < kClosures; ++i)
                mailbox->post([&, i] {
                    allOnReceiverThread =
                        allOnReceiverThread && QThread::currentThread() == networkThread;
                    ran.push_back(i);
                });
        });
        writer.join();
        QTRY_COMPARE_WITH_TIMEOUT(int(ran.size()), kClosures, 10000);
        for (int i = 0; i < kClosures; ++i)
            QCOMPARE(ran[std::size_t(i)], i);
        QVERIFY(allOnReceiverThread);
        // The network thread was not running its loop while they were posted: one batch.
        QCOMPARE(receiver.queuedCalls, 1);
    }

    void aClosurePostedWhileABatchRunsStartsTheNext()
    {
        CountingReceiver receiver;
        auto mailbox = std::make_shared<NetworkThreadMailbox>(&receiver);
        std::vector<std::string> ran;
        mailbox->post([&] {
            ran.push_back("first");
            mailbox->post([&] { ran.push_back("posted from the batch"); });
        });
        mailbox->post([&] { ran.push_back("second"); });
        QTRY_COMPARE_WITH_TIMEOUT(int(ran.size()), 3, 10000);
        QCOMPARE(ran, (std::vector<std::string> {"first", "second", "posted from the batch"}));
        QCOMPARE(receiver.queuedCalls, 2);
    }

    void nothingArrivesAfterClose()
    {
        auto receiver = std::make_unique<CountingReceiver>();
        auto mailbox = std::make_shared<NetworkThreadMailbox>(receiver.get());
        int ran = 0;
        mailbox->post([&] { ++ran; });
        QTRY_COMPARE_WITH_TIMEOUT(ran, 1, 10000);
        mailbox->close();
        receiver.reset(); // a post now would target a destroyed object
        std::thread late([&] { mailbox->post([&] { ++ran; }); });
        late.join();
        QCoreApplication::processEvents();
        QCOMPARE(ran, 1);
    }
};

QTEST_GUILESS_MAIN(TestServerMailbox)
#include "test_server_mailbox.moc"
