#include "relay/store/sqlite/StoreIntegrity.h"

#include "relay/store/sqlite/WalIntegrity.h"

#include <sqlite3.h>

#include <filesystem>
#include <vector>

namespace buzz::relay::store {

namespace {

std::string refusal(const std::string &path, const std::string &what)
{
    return "relay database " + path + " " + what
        + "; refusing to start so that it is not replaced by an empty one. Restore it from a "
          "backup, or move it (with its -wal and -shm files) aside to start an empty relay.";
}

// One text column of every row `sql` yields; nullopt when the statement fails.
std::optional<std::vector<std::string>> rows(sqlite3 *db, const std::string &sql)
{
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK)
        return std::nullopt;
    std::vector<std::string> out;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, 0));
        out.emplace_back(text ? text : "");
    }
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        return std::nullopt;
    return out;
}

// What is wrong with the database, table by table: quick_check (b-tree structure, O(pages)) for
// ordinary tables, integrity_check for WITHOUT ROWID ones, where SQLite 3.40's quick_check
// reports a NULL in every row of a primary-key column declared out of key order (a false
// positive integrity_check does not share).
std::optional<std::string> firstDamage(sqlite3 *db)
{
    const auto tables = rows(db,
                             "SELECT name || '|' || (sql LIKE '%WITHOUT ROWID%') FROM "
                             "sqlite_schema WHERE type = 'table' AND sql NOT LIKE "
                             "'CREATE VIRTUAL%'");
    if (!tables)
        return std::string("cannot be read (") + sqlite3_errmsg(db) + ")";
    for (const std::string &entry : *tables) {
        const std::size_t bar = entry.rfind('|');
        const std::string table = entry.substr(0, bar);
        const bool withoutRowid = entry.substr(bar + 1) == "1";
        std::string quoted = "\"";
        for (char c : table)
            quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        quoted += '"';
        const auto verdict =
            rows(db,
                 std::string("PRAGMA ") + (withoutRowid ? "integrity_check" : "quick_check") + "("
                     + quoted + ")");
        if (!verdict)
            return std::string("cannot be read (") + sqlite3_errmsg(db) + ")";
        if (verdict->empty() || verdict->front() != "ok")
            return "is damaged (" + table + ": "
                + (verdict->empty() ? std::string("no verdict") : verdict->front()) + ")";
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> StoreIntegrity::checkBeforeOpen(const std::string &path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return std::nullopt; // a fresh start
    if (!std::filesystem::is_regular_file(status))
        return refusal(path, "is not a regular file");
    // Before SQLite reads the log: its recovery would drop every commit after a damaged frame,
    // and the open below would then checkpoint what is left and delete the log.
    if (auto damagedLog = WalIntegrity::checkBeforeOpen(path))
        return damagedLog;
    // In WAL mode a new database's pages may all still be in the -wal file (the main file stays
    // at 0 bytes until the first checkpoint, e.g. after a kill). A 0-byte file with no WAL
    // content holds nothing SQLite could read: it was truncated, never left so by the relay.
    if (std::filesystem::file_size(path, ec) == 0 && !ec) {
        std::error_code walError;
        const auto walBytes = std::filesystem::file_size(path + "-wal", walError);
        if (walError || walBytes == 0)
            return refusal(path, "is empty (0 bytes)");
    }

    sqlite3 *db = nullptr;
    // Read-write without create, so a hot WAL is recovered as the writer would; nothing is
    // written unless SQLite must roll a journal back.
    const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    std::optional<std::string> problem;
    if (rc != SQLITE_OK) {
        problem = refusal(path, std::string("cannot be opened (") + sqlite3_errstr(rc) + ")");
    } else if (auto damage = firstDamage(db)) {
        problem = refusal(path, *damage);
    }
    sqlite3_close_v2(db);
    return problem;
}

} // namespace buzz::relay::store
