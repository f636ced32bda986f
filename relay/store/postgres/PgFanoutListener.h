#pragma once

#include "relay/model/StoredEvent.h"
#include "relay/store/CrossProcessFeed.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace buzz::relay::store {

class PgConnection;
class PgResult;

// The receiving half of the live fan-out across relay processes on one PostgreSQL database
// (relay/README.md "Live fan-out across processes"; the writing half is PgStore::kLogFanoutSql). A
// thread of its own (buzz-fanout) holds one connection that LISTENs on the schema's channel; a
// notification from another process wakes it, it reads the fanout_log rows after the last number
// it saw, with the events they name, and hands them over in commit order. Rows this process wrote
// are skipped: its own fan-out delivered them. When the connection breaks it reconnects (with
// a multi-host URL, to whichever server is the primary now), LISTENs again and reads everything
// after its number, so nothing committed meanwhile is missed.
class PgFanoutListener final : public CrossProcessFeed
{
public:
    // Starts the thread; it connects (and retries) on its own. `origin` is this process's token
    // in fanout_log (PgStore::fanoutOrigin), `channel` the NOTIFY channel (PgStore::fanoutChannel).
    PgFanoutListener(std::string url, std::string channel, std::string origin, Deliver deliver);
    ~PgFanoutListener() override; // stops and joins the thread; no delivery after it returns
    PgFanoutListener(const PgFanoutListener &) = delete;
    PgFanoutListener &operator=(const PgFanoutListener &) = delete;

    // "Bz" + 2: the advisory-lock class under which every writer numbers its fanout_log rows.
    static constexpr int kLockClass = 0x427a0002;
    // The reconnect wait grows from the first to the last (a server restart, a failover).
    static constexpr int kFirstRetryMs = 100;
    static constexpr int kLastRetryMs = 2000;
    static constexpr int kRowsPerRead = 500;
    // A connection of its own, told apart in pg_stat_activity.
    static constexpr const char *kApplicationName = "buzz-mock-relay fanout";

    // Prometheus lines: events received from other processes, reconnects, events caught up.
    std::string metricsText() const override;

private:
    void run();
    bool connect(bool &first);
    // Reads and delivers every row after the cursor; false when the connection broke.
    bool readAfterCursor(std::atomic<std::uint64_t> &delivered);
    bool waitReadable(int timeoutMs); // false: stopping
    void onNotification(const std::string &payload, bool &ok);

    std::string m_url;
    std::string m_channel;
    std::string m_origin;
    Deliver m_deliver;
    std::unique_ptr<PgConnection> m_connection;
    std::int64_t m_cursor = 0; // the last fanout_log number read (or skipped as this process's)
    int m_wake = -1; // eventfd: the destructor's stop signal
    std::atomic<bool> m_stopping {false};
    std::atomic<std::uint64_t> m_received {0};
    std::atomic<std::uint64_t> m_reconnects {0};
    std::atomic<std::uint64_t> m_caughtUp {0};
    std::thread m_thread;
};

} // namespace buzz::relay::store
