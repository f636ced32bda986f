#include "relay/store/sqlite/SqliteConnection.h"

#include "relay/store/HexKey.h"
#include "relay/store/sqlite/WalWriteBuffer.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcStore, "buzz.relay.store")

namespace buzz::relay::store {

namespace {
// Dynamic filter SQL has many shapes; bound the cache so a hostile client cannot grow it forever.
constexpr std::size_t kMaxCachedStatements = 512;
constexpr int kBusyTimeoutMs = 5000;
} // namespace

Statement::~Statement()
{
    if (m_statement) {
        sqlite3_reset(m_statement);
        sqlite3_clear_bindings(m_statement);
    }
}

void Statement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_statement, index, value);
}

void Statement::bind(int index, std::string_view text)
{
    sqlite3_bind_text(m_statement, index, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
}

void Statement::bindStatic(int index, std::string_view text)
{
    sqlite3_bind_text(m_statement, index, text.data(), static_cast<int>(text.size()),
                      SQLITE_STATIC);
}

void Statement::bind(int index, const std::optional<std::string> &text)
{
    if (text)
        bind(index, std::string_view(*text));
    else
        bindNull(index);
}

void Statement::bind(int index, const std::optional<std::int64_t> &value)
{
    if (value)
        bind(index, *value);
    else
        bindNull(index);
}

void Statement::bindNull(int index)
{
    sqlite3_bind_null(m_statement, index);
}

void Statement::bindBlobStatic(int index, const void *data, std::size_t size)
{
    sqlite3_bind_blob(m_statement, index, data, static_cast<int>(size), SQLITE_STATIC);
}

bool Statement::step()
{
    m_rc = sqlite3_step(m_statement);
    return m_rc == SQLITE_ROW;
}

bool Statement::run()
{
    while (step()) { }
    return m_rc == SQLITE_DONE;
}

std::int64_t Statement::int64(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

std::string_view Statement::text(int column) const
{
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    if (!data)
        return {};
    return {data, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column))};
}

std::string_view Statement::blob(int column) const
{
    const auto *data = static_cast<const char *>(sqlite3_column_blob(m_statement, column));
    if (!data)
        return {};
    return {data, static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column))};
}

std::optional<std::string> Statement::optionalText(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return std::string(text(column));
}

std::optional<std::int64_t> Statement::optionalInt64(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return int64(column);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

SqliteConnection::~SqliteConnection()
{
    for (auto &entry : m_cache)
        sqlite3_finalize(entry.second);
    sqlite3_close_v2(m_db);
}

std::unique_ptr<SqliteConnection> SqliteConnection::open(const std::string &uri, Role role,
                                                         std::string &error)
{
    sqlite3 *db = nullptr;
    const bool memory = uri.find("mode=memory") != std::string::npos || uri == ":memory:";
    const bool buffered = role == Role::StoreWriter && !memory;
    if (role == Role::StoreWriter)
        role = Role::Writer;
    int flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    flags |=
        role == Role::Writer ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY;
    const int rc =
        sqlite3_open_v2(uri.c_str(), &db, flags, buffered ? WalWriteBuffer::vfsName() : nullptr);
    if (rc != SQLITE_OK) {
        error = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close_v2(db);
        return nullptr;
    }
    std::unique_ptr<SqliteConnection> connection(new SqliteConnection(db, role));
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    sqlite3_extended_result_codes(db, 1);
    if (!HexKey::registerSqlFunction(db)) {
        error = sqlite3_errmsg(db);
        return nullptr;
    }
    if (role == Role::Writer) {
        // FULL: an OK is only sent after the commit is durable (crash-safety acceptance test).
        // wal_autocheckpoint 16000 pages (64 MiB of WAL), WalCheckpointer::kDefaultPages: a page
        // rewritten by many group commits is copied into the database file once per checkpoint.
        // The store's writer replaces this with WalCheckpointer (the same mark, off its thread).
        const char *pragmas = memory ? "PRAGMA foreign_keys=OFF; PRAGMA temp_store=MEMORY;"
                                     : "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; "
                                       "PRAGMA temp_store=MEMORY; PRAGMA wal_autocheckpoint=16000;";
        if (!connection->exec(pragmas)) {
            error = connection->lastError();
            return nullptr;
        }
    } else {
        connection->exec("PRAGMA temp_store=MEMORY; PRAGMA query_only=ON;");
    }
    // An in-memory database lives entirely in its page cache: a cap below its size makes every
    // transaction walk the whole cache (ingest fell from ~1,260 to ~430 events/s at 200k rows).
    connection->exec(memory && role == Role::Writer ? "PRAGMA cache_size=-8388608;"
                                                    : "PRAGMA cache_size=-32768;");
    return connection;
}

Statement SqliteConnection::prepare(const std::string &sql)
{
    if (auto it = m_cache.find(sql); it != m_cache.end())
        return Statement(it->second);
    if (m_cache.size() >= kMaxCachedStatements) {
        for (auto &entry : m_cache)
            sqlite3_finalize(entry.second);
        m_cache.clear();
    }
    sqlite3_stmt *statement = nullptr;
    const int rc = sqlite3_prepare_v3(m_db, sql.c_str(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
    if (rc != SQLITE_OK) {
        qCWarning(lcStore) << "prepare failed:" << sqlite3_errmsg(m_db);
        return Statement(nullptr);
    }
    m_cache.emplace(sql, statement);
    return Statement(statement);
}

bool SqliteConnection::exec(const char *sql)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        qCWarning(lcStore) << "exec failed:" << (message ? message : "?");
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool SqliteConnection::execCached(const std::string &sql)
{
    auto statement = prepare(sql);
    if (!statement.valid())
        return false;
    if (!statement.run()) {
        qCWarning(lcStore) << "exec failed:" << sqlite3_errmsg(m_db);
        return false;
    }
    return true;
}

std::string SqliteConnection::lastError() const
{
    return sqlite3_errmsg(m_db);
}

std::int64_t SqliteConnection::changes() const
{
    return sqlite3_changes64(m_db);
}

namespace {
int deadlinePassed(void *context)
{
    const auto *deadline = static_cast<const std::chrono::steady_clock::time_point *>(context);
    return std::chrono::steady_clock::now() > *deadline ? 1 : 0;
}
} // namespace

void SqliteConnection::interruptAfter(const std::chrono::steady_clock::time_point *deadline)
{
    if (deadline)
        sqlite3_progress_handler(m_db, 4000, &deadlinePassed,
                                 const_cast<std::chrono::steady_clock::time_point *>(deadline));
    else
        sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
}

} // namespace buzz::relay::store
