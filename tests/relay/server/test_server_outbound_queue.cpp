// The per-connection send bound of docs/buzz-protocol.md §WebSocket limits (1 000 messages, three
// consecutive full live sends ⇒ disconnect), reconciled against what the socket still has to write.

#include "relay/server/OutboundQueue.h"

#include <QTest>

using buzz::relay::OutboundQueue;
using Verdict = OutboundQueue::Verdict;

class TestServerOutboundQueue : public QObject
{
    Q_OBJECT

private slots:
    void wireSizeIncludesTheFrameHeader()
    {
        QCOMPARE(OutboundQueue::wireBytes(0), std::size_t(2));
        QCOMPARE(OutboundQueue::wireBytes(125), std::size_t(127));
        QCOMPARE(OutboundQueue::wireBytes(126), std::size_t(130));
        QCOMPARE(OutboundQueue::wireBytes(65535), std::size_t(65539));
        QCOMPARE(OutboundQueue::wireBytes(65536), std::size_t(65546));
    }

    void aReadingPeerNeverHitsTheBound()
    {
        // The socket drains between sends (pendingBytes 0): thousands of live events all go out.
        OutboundQueue queue(1000, 3);
        for (int i = 0; i < 5000; ++i)
            QCOMPARE(queue.offerLive(300, 0), Verdict::Send);
        QCOMPARE(queue.waitingFrames(), std::size_t(1));
    }

    void aStalledPeerIsDroppedThenDisconnected()
    {
        OutboundQueue queue(1000, 3);
        std::int64_t pending = 0;
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(queue.offerLive(300, pending), Verdict::Send);
            pending += 300; // nothing is written: the peer stopped reading
        }
        QCOMPARE(queue.offerLive(300, pending), Verdict::Drop);
        QCOMPARE(queue.offerLive(300, pending), Verdict::Drop);
        QCOMPARE(queue.offerLive(300, pending), Verdict::Disconnect);
    }

    void drainingBetweenFullSendsResetsTheCount()
    {
        OutboundQueue queue(10, 3);
        std::int64_t pending = 0;
        for (int i = 0; i < 10; ++i) {
            queue.offerLive(100, pending);
            pending += 100;
        }
        QCOMPARE(queue.offerLive(100, pending), Verdict::Drop);
        QCOMPARE(queue.offerLive(100, pending), Verdict::Drop);
        pending -= 250; // the peer read two and a half frames: two are gone, room for two more
        QCOMPARE(queue.offerLive(100, pending), Verdict::Send);
        QCOMPARE(queue.waitingFrames(), std::size_t(9));
        pending += 100;
        QCOMPARE(queue.offerLive(100, pending), Verdict::Send);
        QCOMPARE(queue.offerLive(100, pending + 100), Verdict::Drop); // full again: count restarts
        QCOMPARE(queue.offerLive(100, pending + 100), Verdict::Drop);
        QCOMPARE(queue.offerLive(100, pending + 100), Verdict::Disconnect);
    }

    void historyIsAlwaysQueuedButCountsTowardsTheBound()
    {
        // A REQ answer of 1 000 events is what the client asked for: never dropped. A live event
        // arriving while all of it is still unwritten finds the queue full.
        OutboundQueue queue(1000, 3);
        std::int64_t pending = 0;
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(queue.offer(500, pending), Verdict::Send);
            pending += 500;
        }
        QCOMPARE(queue.offerLive(300, pending), Verdict::Drop);
        QCOMPARE(queue.offerLive(300, 0), Verdict::Send); // written meanwhile: room again
    }

    void everyFrameIsHeldToTheByteBound()
    {
        // History and OKs are never dropped, but a peer that leaves them unread past the byte
        // bound is cut: nothing the relay sends grows without limit.
        OutboundQueue queue(1000, 3, 10'000);
        std::int64_t pending = 0;
        for (int i = 0; i < 9; ++i) {
            QCOMPARE(queue.offer(1000, pending), Verdict::Send);
            pending += 1000;
        }
        QCOMPARE(queue.offer(1001, pending), Verdict::Disconnect);
        QCOMPARE(queue.offerLive(1001, pending), Verdict::Disconnect);
        QCOMPARE(queue.offer(1000, pending), Verdict::Send); // exactly at the bound
        QCOMPARE(queue.offer(1000, 4000), Verdict::Send); // the peer read meanwhile
        QCOMPARE(queue.waitingBytes(), std::int64_t(5000));
    }

    void bytesTheSocketWroteItselfCountToo()
    {
        // QWebSocket answers pings with pongs the queue never saw: the socket's own count of
        // bytes waiting holds them, and passing the bound with them cuts the peer.
        OutboundQueue queue(1000, 3, 10'000);
        QCOMPARE(queue.offer(1000, 0), Verdict::Send);
        QCOMPARE(queue.check(9'000), Verdict::Send);
        QCOMPARE(queue.offer(1001, 9'000), Verdict::Disconnect);
        QCOMPARE(queue.offerLive(1001, 9'000), Verdict::Disconnect);
        QCOMPARE(queue.check(10'001), Verdict::Disconnect);
        QCOMPARE(queue.check(100), Verdict::Send); // the peer read them
    }
};

QTEST_GUILESS_MAIN(TestServerOutboundQueue)
#include "test_server_outbound_queue.moc"
