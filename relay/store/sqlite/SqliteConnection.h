#pragma once

#include <sqlite3.h>

#include <chrono>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace buzz::relay::store {

// A statement borrowed from a connection's cache. Reset and unbound when the borrow ends, so a
// cached statement never keeps a read transaction open or leaks bindings into the next use.
class Statement
{
public:
    explicit Statement(sqlite3_stmt *statement)
        : m_statement(statement)
    { }
    Statement(Statement &&other) noexcept
        : m_statement(other.m_statement)
    {
        other.m_statement = nullptr;
    }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    Statement &operator=(Statement &&) = delete;
    ~Statement();

    bool valid() const { return m_statement != nullptr; }

    // Binding indexes are 1-based, as in SQLite.
    void bind(int index, std::int64_t value);
    void bind(int index, int value) { bind(index, static_cast<std::int64_t>(value)); }
    void bind(int index, std::string_view text); // SQLITE_TRANSIENT: the caller's buffer may die
    void bindStatic(int index, std::string_view text); // text outlives the step loop
    void bind(int index, const std::optional<std::string> &text);
    void bind(int index, const std::optional<std::int64_t> &value);
    void bindNull(int index);
    // A BLOB whose bytes outlive the step loop (ids, pubkeys, signatures: see HexKey).
    void bindBlobStatic(int index, const void *data, std::size_t size);

    // SQLITE_ROW → true; SQLITE_DONE → false; errors → false with ok() == false.
    bool step();
    bool ok() const { return m_rc == SQLITE_ROW || m_rc == SQLITE_DONE || m_rc == SQLITE_OK; }
    int resultCode() const { return m_rc; }
    // Runs to completion (for writes). True when the statement finished without error.
    bool run();

    std::int64_t int64(int column) const;
    std::string_view text(int column) const;
    std::string_view blob(int column) const; // valid until the next step or reset
    std::optional<std::string> optionalText(int column) const;
    std::optional<std::int64_t> optionalInt64(int column) const;
    bool isNull(int column) const;

    sqlite3_stmt *raw() const { return m_statement; }

private:
    sqlite3_stmt *m_statement = nullptr;
    int m_rc = SQLITE_OK;
};

// One SQLite connection with a prepared-statement cache keyed by SQL text. Not thread-safe: the
// owner (writer mutex or read pool lease) guarantees a single user at a time.
class SqliteConnection
{
public:
    // StoreWriter: a Writer whose WAL writes are gathered into one per commit (WalWriteBuffer);
    // only for a connection that keeps synchronous=FULL, so every commit syncs, and so flushes,
    // its frames before they are published (store::SqliteStore's writer).
    enum class Role { Writer, StoreWriter, Reader };

    ~SqliteConnection();
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;

    // `uri` is a file path or an SQLite URI ("file:…?mode=memory"). Applies the pragmas of the
    // role.
    static std::unique_ptr<SqliteConnection> open(const std::string &uri, Role role,
                                                  std::string &error);

    // A cached prepared statement; invalid (valid() == false) when the SQL does not compile.
    Statement prepare(const std::string &sql);
    bool exec(const char *sql);
    // exec() for a statement run again and again (SAVEPOINT, RELEASE, COMMIT): prepared once.
    bool execCached(const std::string &sql);
    std::string lastError() const;
    std::int64_t changes() const;
    // The result code of the last failed call on this connection.
    int errorCode() const { return sqlite3_errcode(m_db); }
    // Whether `code` is the one a statement stopped by interruptAfter() fails with.
    static bool isInterrupted(int code) { return code == SQLITE_INTERRUPT; }
    // From now on a statement on this connection fails with SQLITE_INTERRUPT once `*deadline` has
    // passed (checked every few thousand VM steps); nullptr lifts it. `*deadline` must stay valid
    // until it is lifted.
    void interruptAfter(const std::chrono::steady_clock::time_point *deadline);

    sqlite3 *handle() const { return m_db; }
    Role role() const { return m_role; }

private:
    SqliteConnection(sqlite3 *db, Role role)
        : m_db(db)
        , m_role(role)
    { }

    sqlite3 *m_db = nullptr;
    Role m_role;
    std::unordered_map<std::string, sqlite3_stmt *> m_cache;
};

} // namespace buzz::relay::store
