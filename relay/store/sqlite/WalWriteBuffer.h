#pragma once

#include <cstddef>

namespace buzz::relay::store {

// A SQLite VFS over the default one that gathers the writes SQLite makes to a WAL file into one
// buffer and hands them to the file system together (in 64 KiB pieces) just before anything could
// observe them: a sync, a read, the file's size, a truncation, a file control, closing. SQLite
// writes each WAL frame as two writes (its 24-byte header, then the page), so a group commit of
// ~100 events made ~500 small `pwrite`s, each a system call with its own page-cache walk.
//
// Durability is unchanged: with synchronous=FULL a COMMIT syncs the WAL before SQLite publishes
// its frames in the wal-index and before the caller hears of it, and the sync writes the buffer
// first, so the same bytes reach the disk before the same fsync. Other connections read only
// published frames, so never a buffered one. Hence only for a connection that keeps
// synchronous=FULL (SqliteConnection::Role::StoreWriter): with NORMAL or OFF a commit publishes
// frames it never syncs. Every other file (the database, temporary files) is the default VFS's
// own, untouched.
class WalWriteBuffer
{
public:
    // The VFS's name for sqlite3_open_v2, registered on first use (not as the default VFS);
    // nullptr when the default VFS cannot be wrapped (then SQLite's own is used).
    static const char *vfsName();

    // Bytes gathered before they are handed over; they go in pieces of kPiece (the unix VFS
    // writes at most 128 KiB at a time), and a write of a piece or more goes straight through.
    static constexpr std::size_t kCapacity = 4 * 1024 * 1024;
    static constexpr std::size_t kPiece = 64 * 1024;
};

} // namespace buzz::relay::store
