#pragma once

#include "relay/store/ReadLease.h"
#include "relay/store/ReadRouter.h"
#include "relay/store/RowWriter.h"
#include "relay/store/SqliteConnection.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace buzz::relay::store {

// The writer database: one writer connection (all writes serialised by a mutex, which also makes
// every per-(community, channel) canvas check-and-insert atomic) and, for file databases, a small
// pool of read-only connections on the same file. In memory there is a single connection shared
// under the writer mutex.
class Database
{
public:
    class WriteTransaction
    {
    public:
        ~WriteTransaction();
        WriteTransaction(const WriteTransaction &) = delete;
        WriteTransaction &operator=(const WriteTransaction &) = delete;

        SqliteConnection &connection() { return *m_connection; }
        RowWriter &rows() { return m_rows; }
        std::int64_t startedAtMs() const { return m_startedAtMs; }
        bool hasChanges() const { return !m_change["ops"].empty(); }

        // Appends the commit-log record (when anything changed) and commits. False → rolled back.
        bool commit(std::int64_t committedAtMs);
        void rollback();

    private:
        friend class Database;
        WriteTransaction(Database &database, std::unique_lock<std::mutex> lock,
                         std::string community, std::int64_t startedAtMs);

        Database &m_database;
        std::unique_lock<std::mutex> m_lock;
        SqliteConnection *m_connection;
        nlohmann::json m_change;
        RowWriter m_rows;
        std::int64_t m_startedAtMs;
        bool m_open = false;
    };

    ~Database();
    static std::unique_ptr<Database> open(const std::optional<std::string> &dataDir,
                                          std::string &error);

    // Blocks until the writer is free; nullptr when BEGIN fails.
    std::unique_ptr<WriteTransaction> beginWrite(const std::string &community, std::int64_t nowMs);

    // Every read goes through the router (the seam for replicas).
    ReadLease read(const ReadRequest &request) { return m_router->route(request); }
    void setReadRouter(std::unique_ptr<ReadRouter> router) { m_router = std::move(router); }

    // A connection on the writer database (reader pool on files, the writer itself in memory).
    ReadLease writerPoolLease(std::string reason);

    std::int64_t lastLsn() const;
    bool inMemory() const { return m_inMemory; }
    // Oldest open write transaction start, if one is open (the routing issue's fence input).
    std::optional<std::int64_t> openWriteStartedAtMs() const;

private:
    Database() = default;

    std::unique_ptr<SqliteConnection> m_writer;
    std::mutex m_writerMutex;
    bool m_inMemory = true;
    std::string m_path;

    std::mutex m_poolMutex;
    std::condition_variable m_poolAvailable;
    std::vector<std::unique_ptr<SqliteConnection>> m_readers; // all reader connections ever opened
    std::vector<SqliteConnection *> m_idleReaders;
    int m_maxReaders = 4;

    std::atomic<std::int64_t> m_lastLsn {0};
    // Start times of write transactions begun and not yet finished, including those still waiting
    // for the writer: the replica fence wall must sit below every one of them (routing issue).
    void forgetWriteStart(std::int64_t startedAtMs);
    mutable std::mutex m_writeStartsMutex;
    std::multiset<std::int64_t> m_writeStarts;
    std::unique_ptr<ReadRouter> m_router;
};

} // namespace buzz::relay::store
