#pragma once

#include <QObject>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace buzz::relay {

// Hands closures from any thread to the network thread in batches: the first closure of a batch
// posts one queued call, the ones that follow before it runs join it. The writer thread finishes a
// group commit of ~125 events at once, and one posted call per OK and per fan-out cost it a
// QMetaCallEvent allocation, the post-event lock and a wake-up each. Closures run in the order they
// were posted.
class NetworkThreadMailbox : public std::enable_shared_from_this<NetworkThreadMailbox>
{
public:
    // `receiver` lives on the network thread; a batch still queued when it is destroyed is
    // dropped with it (its closures are destroyed with the mailbox, never run).
    explicit NetworkThreadMailbox(QObject *receiver);

    void post(std::function<void()> task);
    // Before the receiver goes away: later posts are dropped, and one still posting from another
    // thread finishes first.
    void close();

private:
    void runBatch();

    QObject *m_receiver;
    std::mutex m_mutex;
    std::vector<std::function<void()>> m_tasks;
    bool m_batchPosted = false;
};

} // namespace buzz::relay
