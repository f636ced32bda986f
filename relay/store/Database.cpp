#include "relay/store/Database.h"

#include "relay/store/Schema.h"

#include <QLoggingCategory>

#include <filesystem>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace buzz::relay::store {

ReadLease WriterOnlyReadRouter::route(const ReadRequest &request)
{
    (void)request;
    return m_database.writerPoolLease("disabled");
}

Database::WriteTransaction::WriteTransaction(Database &database, std::unique_lock<std::mutex> lock,
                                             std::string community, std::int64_t startedAtMs)
    : m_database(database)
    , m_lock(std::move(lock))
    , m_connection(database.m_writer.get())
    , m_change({{"community", std::move(community)}, {"ops", nlohmann::json::array()}})
    , m_rows(*m_connection, &m_change)
    , m_startedAtMs(startedAtMs)
{ }

Database::WriteTransaction::~WriteTransaction()
{
    rollback();
}

bool Database::WriteTransaction::commit(std::int64_t committedAtMs)
{
    if (!m_open)
        return false;
    if (hasChanges()) {
        m_change["committed_at_ms"] = committedAtMs;
        auto append = m_connection->prepare(
            "INSERT INTO commit_log (committed_at_ms, change) VALUES (?1, ?2)");
        append.bind(1, committedAtMs);
        const std::string text = m_change.dump();
        append.bindStatic(2, text);
        if (!append.run()) {
            qCWarning(lcStore) << "commit log append failed:" << m_connection->lastError().c_str();
            rollback();
            return false;
        }
        const std::int64_t lsn = sqlite3_last_insert_rowid(m_connection->handle());
        if (!m_connection->exec("COMMIT")) {
            rollback();
            return false;
        }
        m_database.m_lastLsn.store(lsn);
    } else if (!m_connection->exec("COMMIT")) {
        rollback();
        return false;
    }
    m_open = false;
    m_database.forgetWriteStart(m_startedAtMs);
    if (m_lock.owns_lock())
        m_lock.unlock();
    return true;
}

void Database::WriteTransaction::rollback()
{
    if (m_open) {
        m_connection->exec("ROLLBACK");
        m_open = false;
        m_database.forgetWriteStart(m_startedAtMs);
    }
    if (m_lock.owns_lock())
        m_lock.unlock();
}

Database::~Database()
{
    m_router.reset();
    m_idleReaders.clear();
    m_readers.clear();
    if (m_writer && !m_inMemory)
        m_writer->exec("PRAGMA wal_checkpoint(PASSIVE)");
}

std::unique_ptr<Database> Database::open(const std::optional<std::string> &dataDir,
                                         std::string &error)
{
    std::unique_ptr<Database> database(new Database());
    std::string uri = ":memory:";
    if (dataDir) {
        std::error_code ec;
        std::filesystem::create_directories(*dataDir, ec);
        if (ec) {
            error = "cannot create data directory: " + ec.message();
            return nullptr;
        }
        uri = (std::filesystem::path(*dataDir) / "relay.sqlite3").string();
        database->m_inMemory = false;
        database->m_path = uri;
    }
    database->m_writer = SqliteConnection::open(uri, SqliteConnection::Role::Writer, error);
    if (!database->m_writer)
        return nullptr;
    if (!Schema::apply(*database->m_writer)) {
        error = "schema: " + database->m_writer->lastError();
        return nullptr;
    }
    auto lastLsn = database->m_writer->prepare("SELECT COALESCE(MAX(lsn), 0) FROM commit_log");
    if (lastLsn.step())
        database->m_lastLsn.store(lastLsn.int64(0));
    database->m_router = std::make_unique<WriterOnlyReadRouter>(*database);
    return database;
}

std::unique_ptr<Database::WriteTransaction> Database::beginWrite(const std::string &community,
                                                                 std::int64_t nowMs)
{
    {
        std::lock_guard starts(m_writeStartsMutex);
        m_writeStarts.insert(nowMs);
    }
    std::unique_lock lock(m_writerMutex);
    std::unique_ptr<WriteTransaction> transaction(
        new WriteTransaction(*this, std::move(lock), community, nowMs));
    if (!m_writer->exec("BEGIN IMMEDIATE")) {
        forgetWriteStart(nowMs);
        return nullptr;
    }
    transaction->m_open = true;
    return transaction;
}

ReadLease Database::writerPoolLease(std::string reason)
{
    if (m_inMemory) {
        m_writerMutex.lock();
        return ReadLease(
            m_writer.get(), [this] { m_writerMutex.unlock(); }, "writer", std::move(reason));
    }
    std::unique_lock lock(m_poolMutex);
    if (m_idleReaders.empty() && static_cast<int>(m_readers.size()) < m_maxReaders) {
        std::string error;
        auto reader = SqliteConnection::open(m_path, SqliteConnection::Role::Reader, error);
        if (reader) {
            m_idleReaders.push_back(reader.get());
            m_readers.push_back(std::move(reader));
        } else {
            qCWarning(lcStore) << "cannot open reader:" << error.c_str();
        }
    }
    if (m_readers.empty()) {
        // No reader could be opened: fall back to the writer connection itself.
        lock.unlock();
        m_writerMutex.lock();
        return ReadLease(
            m_writer.get(), [this] { m_writerMutex.unlock(); }, "writer", std::move(reason));
    }
    m_poolAvailable.wait(lock, [this] { return !m_idleReaders.empty(); });
    SqliteConnection *reader = m_idleReaders.back();
    m_idleReaders.pop_back();
    return ReadLease(
        reader,
        [this, reader] {
            {
                std::lock_guard guard(m_poolMutex);
                m_idleReaders.push_back(reader);
            }
            m_poolAvailable.notify_one();
        },
        "writer", std::move(reason));
}

void Database::forgetWriteStart(std::int64_t startedAtMs)
{
    std::lock_guard starts(m_writeStartsMutex);
    if (const auto it = m_writeStarts.find(startedAtMs); it != m_writeStarts.end())
        m_writeStarts.erase(it);
}

std::int64_t Database::lastLsn() const
{
    return m_lastLsn.load();
}

std::optional<std::int64_t> Database::openWriteStartedAtMs() const
{
    std::lock_guard starts(m_writeStartsMutex);
    if (m_writeStarts.empty())
        return std::nullopt;
    return *m_writeStarts.begin();
}

} // namespace buzz::relay::store
