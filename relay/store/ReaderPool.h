#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace buzz::relay::store {

// The writer database's pool of read connections, the same for both backends: up to `size`
// connections, opened when a read finds none idle, each with the ReadConnection (`View`) that
// reads through it; a read waits while every one is lent. `Connection` is SqliteConnection or
// PgConnection, `View` SqliteReadConnection or PgReadConnection.
template<class Connection, class View>
class ReaderPool
{
public:
    using Open = std::function<std::unique_ptr<Connection>(std::string &error)>;

    ReaderPool(int size, Open open)
        : m_size(size)
        , m_open(std::move(open))
    { }

    // An idle reader (opening one first when none is idle and the pool is not full; waiting when
    // it is); nullptr when not a single reader could ever be opened, `error` saying why.
    View *acquire(std::string &error)
    {
        std::unique_lock lock(m_mutex);
        if (m_idle.empty() && static_cast<int>(m_connections.size()) < m_size) {
            if (auto connection = m_open(error)) {
                m_views.push_back(std::make_unique<View>(*connection));
                m_connections.push_back(std::move(connection));
                m_idle.push_back(m_views.back().get());
            }
        }
        if (m_connections.empty())
            return nullptr;
        m_available.wait(lock, [this] { return !m_idle.empty(); });
        View *view = m_idle.back();
        m_idle.pop_back();
        return view;
    }

    void release(View *view)
    {
        {
            std::lock_guard guard(m_mutex);
            m_idle.push_back(view);
        }
        m_available.notify_one();
    }

    // Closes every connection (none may be lent).
    void clear()
    {
        std::lock_guard guard(m_mutex);
        m_idle.clear();
        m_views.clear();
        m_connections.clear();
    }

private:
    const int m_size;
    const Open m_open;
    std::mutex m_mutex;
    std::condition_variable m_available;
    std::vector<std::unique_ptr<Connection>> m_connections; // every one ever opened
    std::vector<std::unique_ptr<View>> m_views; // one per connection, destroyed before it
    std::vector<View *> m_idle;
};

} // namespace buzz::relay::store
