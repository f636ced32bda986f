#include "relay/server/NetworkThreadMailbox.h"

#include <QMetaObject>

namespace buzz::relay {

NetworkThreadMailbox::NetworkThreadMailbox(QObject *receiver)
    : m_receiver(receiver)
{ }

void NetworkThreadMailbox::post(std::function<void()> task)
{
    std::lock_guard lock(m_mutex);
    if (!m_receiver)
        return;
    m_tasks.push_back(std::move(task));
    if (m_batchPosted)
        return;
    m_batchPosted = true;
    // Under the lock, so that close() cannot return while a post to the receiver is under way.
    QMetaObject::invokeMethod(
        m_receiver, [self = shared_from_this()] { self->runBatch(); }, Qt::QueuedConnection);
}

void NetworkThreadMailbox::close()
{
    std::lock_guard lock(m_mutex);
    m_receiver = nullptr;
}

void NetworkThreadMailbox::runBatch()
{
    std::vector<std::function<void()>> batch;
    {
        std::lock_guard lock(m_mutex);
        batch.swap(m_tasks);
        m_batchPosted = false; // a closure posted from here on starts the next batch
    }
    // A local batch: a closure may post again, or even spin an event loop that runs the next one.
    for (auto &task : batch)
        task();
}

} // namespace buzz::relay
