#pragma once

#include "relay/RelayEngine.h"
#include "relay/auth/RelayMembership.h"
#include "relay/server/JobQueue.h"
#include "relay/server/NetworkThreadMailbox.h"
#include "relay/server/OutboundQueue.h"
#include "relay/server/PendingReplies.h"
#include "relay/server/ServerMetrics.h"
#include "relay/server/ThreadHandOff.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace buzz::relay {

// What the HTTP bridge and the WebSocket sessions share, owned by RelayServer.
struct ServerContext
{
    RelayEngine *engine = nullptr;
    QThreadPool *workers = nullptr; // every engine call runs here, never on the network thread
    JobQueue *ingestJobs = nullptr; // short jobs on `workers`, a few runners draining one queue
    // The one way back to the network thread (every reply, fan-out and revocation, in post
    // order), to a receiver there that outlives every worker job.
    std::shared_ptr<NetworkThreadMailbox> mailbox;
    ServerMetrics *metrics = nullptr;
    std::string relayUrl;
    const RelayMembership *membership = nullptr; // NIP-43 gate; null = off
    // Liveness (docs/buzz-protocol.md §WebSocket limits): a ping every interval; this many
    // unanswered ⇒ disconnect.
    int pingIntervalMs = 30000;
    int maxUnansweredPings = 3;
    // Bytes a WebSocket may leave unread before it is cut as a slow consumer (OutboundQueue).
    std::size_t maxOutboundBytes = OutboundQueue::kDefaultMaxBytes;
    // The relay-wide outbound bound (relay/README.md "Limits"), shared with the engine; null in
    // tests that build sessions by hand.
    std::shared_ptr<OutboundBudget> budget;
    // On the network thread, when the budget is over its limit: cuts the connections holding
    // the most unread bytes until it is not.
    std::function<void()> relieveOutbound;
    // Large buffers were freed: hand the memory back to the system soon (coalesced).
    std::function<void()> releaseMemory;
    std::function<std::int64_t()> clock;
    // Replies of runOffThreadAsync work still to be posted; RelayServer::stop waits for them.
    std::shared_ptr<PendingReplies> pendingReplies = std::make_shared<PendingReplies>();

    // Runs `work` on the worker pool and hands its result to `done` back on the network thread,
    // unless `receiver` was destroyed meanwhile. The QPointer is only dereferenced on the network
    // thread; workers merely carry it.
    template<class Work, class Done>
    void runOffThread(QObject *receiver, Work work, Done done) const
    {
        using Result = std::invoke_result_t<Work &>;
        QPointer<QObject> guard(receiver);
        std::shared_ptr<NetworkThreadMailbox> target = mailbox;
        std::function<void()> task = [guard, target, work = std::move(work),
                                      done = std::move(done)]() mutable {
            handoff::adopt(target.get());
            auto result = std::make_shared<Result>(work());
            // `done` moves on: what it holds (an OrderedReply) is destroyed on the network thread.
            target->post([guard, result, done = std::move(done)]() mutable {
                if (guard)
                    done(std::move(*result));
            });
        };
        // Published once the closure is built: all it holds was written before the hand-over.
        handoff::publish(target.get());
        workers->start(std::move(task));
    }

    // Like runOffThread for work that finishes elsewhere: `work` gets a reply callback, to be
    // called exactly once from any thread, which hands the result to `done` on the network thread
    // (unless `receiver` was destroyed meanwhile). The pool thread is free as soon as `work`
    // returns.
    template<class Result, class Work, class Done>
    void runOffThreadAsync(QObject *receiver, Work work, Done done) const
    {
        QPointer<QObject> guard(receiver);
        std::shared_ptr<NetworkThreadMailbox> target = mailbox;
        std::shared_ptr<PendingReplies> pending = pendingReplies;
        pending->add();
        std::function<void()> job = [guard, target, pending, work = std::move(work),
                                     done = std::move(done)]() mutable {
            handoff::adopt(target.get());
            work([guard, target, pending, done](Result result) {
                auto shared = std::make_shared<Result>(std::move(result));
                target->post([guard, shared, done]() mutable {
                    if (guard)
                        done(std::move(*shared));
                });
                pending->release();
            });
        };
        handoff::publish(target.get());
        ingestJobs->push(std::move(job));
    }
};

} // namespace buzz::relay
