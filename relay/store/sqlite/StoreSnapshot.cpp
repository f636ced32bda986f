#include "relay/store/sqlite/StoreSnapshot.h"

#include "relay/store/sqlite/SqliteConnection.h"

namespace buzz::relay::store {

std::optional<std::int64_t> StoreSnapshot::copy(SqliteConnection &source,
                                                SqliteConnection &destination, std::string &error)
{
    sqlite3_backup *backup =
        sqlite3_backup_init(destination.handle(), "main", source.handle(), "main");
    if (!backup) {
        error = "snapshot: " + destination.lastError();
        return std::nullopt;
    }
    // -1: every page in one step, so the copy is one read transaction of the source.
    const int stepped = sqlite3_backup_step(backup, -1);
    const int finished = sqlite3_backup_finish(backup);
    if (stepped != SQLITE_DONE || finished != SQLITE_OK) {
        error =
            std::string("snapshot: ") + sqlite3_errstr(stepped != SQLITE_DONE ? stepped : finished);
        return std::nullopt;
    }
    // The newest record is never trimmed (CommitLogTrimmer), so this is the LSN the copy is at.
    auto newest = destination.prepare("SELECT COALESCE(MAX(lsn), 0) FROM commit_log");
    if (!newest.valid() || !newest.step()) {
        error = "snapshot: " + destination.lastError();
        return std::nullopt;
    }
    return newest.int64(0);
}

} // namespace buzz::relay::store
