#include "relay/store/postgres/PgFanoutListener.h"

#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgEventReader.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <charconv>

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcPgFanout, "buzz.relay.store.fanout")

namespace buzz::relay::store {

namespace {
// Columns 0-5 of kReadAfter, then the event's (PgEventReader::kEventColumns). An event of another
// process is joined to its row; this process's rows and rowless events (kind 20002) are not.
const std::string kReadAfter =
    std::string("SELECT pg_current_wal_lsn(), f.seq, f.origin, f.community, f.event_json, "
                "f.channel, ")
    + PgEventReader::kEventColumns
    + " FROM fanout_log f LEFT JOIN events e ON f.origin <> $2 AND f.event_json IS NULL"
      " AND e.community = f.community AND e.created_at = f.created_at AND e.id = f.event_id"
      " WHERE f.seq > $1 ORDER BY f.seq LIMIT "
    + std::to_string(PgFanoutListener::kRowsPerRead);
constexpr int kFirstEventColumn = 6;
} // namespace

PgFanoutListener::PgFanoutListener(std::string url, std::string channel, std::string origin,
                                   Deliver deliver)
    : m_url(std::move(url))
    , m_channel(std::move(channel))
    , m_origin(std::move(origin))
    , m_deliver(std::move(deliver))
    , m_wake(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    m_thread = std::thread([this] {
        pthread_setname_np(pthread_self(), "buzz-fanout");
        run();
    });
}

PgFanoutListener::~PgFanoutListener()
{
    m_stopping.store(true);
    const std::uint64_t one = 1;
    if (m_wake >= 0 && ::write(m_wake, &one, sizeof one) < 0)
        qCWarning(lcPgFanout) << "cannot wake the fan-out listener:" << errno;
    if (m_thread.joinable())
        m_thread.join();
    if (m_wake >= 0)
        ::close(m_wake);
}

std::string PgFanoutListener::metricsText() const
{
    return "# HELP buzz_fanout_received_total Events committed by other relay processes on this "
           "database and fanned out here.\n# TYPE buzz_fanout_received_total counter\n"
           "buzz_fanout_received_total "
        + std::to_string(m_received.load()) + "\n"
        + "# HELP buzz_fanout_caught_up_total Of those, events read after a reconnect of the "
          "fan-out listener (committed while it was away).\n# TYPE buzz_fanout_caught_up_total "
          "counter\nbuzz_fanout_caught_up_total "
        + std::to_string(m_caughtUp.load()) + "\n"
        + "# HELP buzz_fanout_reconnects_total Times the fan-out listener lost its connection (it "
          "then reconnects and catches up).\n"
          "# TYPE buzz_fanout_reconnects_total counter\nbuzz_fanout_reconnects_total "
        + std::to_string(m_reconnects.load()) + "\n";
}

bool PgFanoutListener::waitReadable(int timeoutMs)
{
    pollfd fds[2] = {{m_wake, POLLIN, 0}, {m_connection ? m_connection->socket() : -1, POLLIN, 0}};
    const int count = fds[1].fd >= 0 ? 2 : 1;
    while (::poll(fds, nfds_t(count), timeoutMs) < 0 && errno == EINTR) { }
    return !m_stopping.load();
}

bool PgFanoutListener::connect(bool &first)
{
    // A new connection each time, not a reset of the old one: with a multi-host URL
    // (target_session_attrs=read-write) libpq then finds whichever server is the primary now.
    std::string error;
    m_connection = PgConnection::open(m_url, error);
    if (!m_connection) {
        qCWarning(lcPgFanout) << "live fan-out listener cannot connect:" << error.c_str();
        return false;
    }
    if (!m_connection->execOk(std::string("SET application_name = '") + kApplicationName + "'")
        || !m_connection->execOk("LISTEN \"" + m_channel + "\""))
        return false;
    if (first) {
        // Listening from here on: what committed before is history, not live.
        PgResult last = m_connection->exec("SELECT coalesce(max(seq), 0) FROM fanout_log");
        if (!last.ok() || last.rows() == 0)
            return false;
        m_cursor = last.int64(0, 0);
        first = false;
        qCInfo(lcPgFanout) << "live fan-out listening on" << m_connection->describe().c_str();
        return true;
    }
    // Everything committed while the connection was away, then notifications again.
    const std::uint64_t before = m_caughtUp.load();
    if (!readAfterCursor(m_caughtUp))
        return false;
    qCWarning(lcPgFanout) << "live fan-out listener reconnected to"
                          << m_connection->describe().c_str() << "and caught up"
                          << (m_caughtUp.load() - before) << "events of other processes";
    return true;
}

bool PgFanoutListener::readAfterCursor(std::atomic<std::uint64_t> &delivered)
{
    for (;;) {
        PgResult rows = m_connection->run(kReadAfter, PgParams().int64(m_cursor).text(m_origin));
        if (!rows.ok()) {
            qCWarning(lcPgFanout) << "live fan-out read failed:" << rows.message().c_str();
            return false;
        }
        std::vector<StoredEvent> events;
        for (int row = 0; row < rows.rows(); ++row) {
            m_cursor = rows.int64(row, 1);
            if (rows.text(row, 2) == m_origin)
                continue; // fanned out by this process when it committed
            if (!rows.isNull(row, 4)) {
                auto event = nostr::Event::fromJson(rows.text(row, 4));
                if (!event)
                    continue; // written by a relay from its own serialisation: never
                events.push_back(
                    StoredEvent {std::move(event).value(), std::string(rows.text(row, 4)),
                                 std::string(rows.text(row, 3)), rows.optionalText(row, 5)});
            } else if (!rows.isNull(row, kFirstEventColumn)) {
                events.push_back(PgEventReader::rowToStoredEvent(rows, row, kFirstEventColumn));
            }
        }
        if (!events.empty()) {
            delivered.fetch_add(events.size());
            m_deliver(std::move(events), rows.int64(0, 0));
        }
        if (rows.rows() < kRowsPerRead)
            return true;
    }
}

void PgFanoutListener::onNotification(const std::string &payload, bool &ok)
{
    const auto space = payload.rfind(' ');
    std::int64_t seq = 0;
    if (space == std::string::npos
        || std::from_chars(payload.data() + space + 1, payload.data() + payload.size(), seq).ec
            != std::errc())
        return;
    if (seq <= m_cursor)
        return; // already read
    if (payload.compare(0, space, m_origin) == 0) {
        // This process's own group: every commit before it was notified before it and has been
        // read, so nothing below `seq` is left (numbers follow commit order).
        m_cursor = seq;
        return;
    }
    ok = readAfterCursor(m_received);
}

void PgFanoutListener::run()
{
    bool first = true;
    int retryMs = kFirstRetryMs;
    while (!m_stopping.load()) {
        if (!connect(first)) {
            m_connection.reset();
            if (!waitReadable(retryMs))
                return;
            retryMs = std::min(retryMs * 2, kLastRetryMs);
            continue;
        }
        retryMs = kFirstRetryMs;
        bool ok = true;
        while (ok) {
            if (!waitReadable(-1))
                return;
            ok = m_connection->consumeInput();
            for (const std::string &payload : m_connection->takeNotifications()) {
                if (ok)
                    onNotification(payload, ok);
            }
        }
        qCWarning(lcPgFanout) << "live fan-out listener lost its connection:"
                              << m_connection->lastError().c_str() << "- reconnecting";
        m_reconnects.fetch_add(1);
        m_connection.reset();
    }
}

} // namespace buzz::relay::store
