#pragma once

#include <optional>
#include <string>

namespace buzz::relay::store {

// Decides whether an existing relay database file may be opened. A missing file is a fresh
// start; an empty (0-byte) file, a write-ahead log whose damage would lose committed transactions
// (WalIntegrity) or a file SQLite finds damaged is refused with a message that names the file and
// what to do, because opening it would silently start an empty relay over it (SQLite treats a
// 0-byte file as a new database), drop acknowledged events or serve from broken pages.
class StoreIntegrity
{
public:
    // nullopt = fine to open (or absent); otherwise the startup error to show.
    static std::optional<std::string> checkBeforeOpen(const std::string &path);
};

} // namespace buzz::relay::store
