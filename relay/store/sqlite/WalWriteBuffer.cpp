#include "relay/store/sqlite/WalWriteBuffer.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace buzz::relay::store {

namespace {

// One open WAL file: our sqlite3_file, followed in the same allocation by the default VFS's.
struct BufferedFile
{
    sqlite3_file base;
    sqlite3_file *real;
    char *data;
    std::size_t size;
    sqlite3_int64 start; // file offset of data[0]
};

sqlite3_vfs *defaultVfs = nullptr;
sqlite3_vfs bufferedVfs;

BufferedFile *cast(sqlite3_file *file)
{
    return reinterpret_cast<BufferedFile *>(file);
}

const sqlite3_io_methods &realMethods(BufferedFile *file)
{
    return *file->real->pMethods;
}

int flush(BufferedFile *file)
{
    // In pieces: the default (unix) VFS hands at most 128 KiB to one pwrite.
    int rc = SQLITE_OK;
    for (std::size_t at = 0; at < file->size && rc == SQLITE_OK; at += WalWriteBuffer::kPiece) {
        const std::size_t piece = std::min(WalWriteBuffer::kPiece, file->size - at);
        rc = realMethods(file).xWrite(file->real, file->data + at, int(piece),
                                      file->start + sqlite3_int64(at));
    }
    file->size = 0; // on an error SQLite fails the transaction; nothing buffered is kept
    return rc;
}

int bufferedClose(sqlite3_file *handle)
{
    BufferedFile *file = cast(handle);
    const int flushed = flush(file);
    const int closed = realMethods(file).xClose(file->real);
    sqlite3_free(file->data);
    file->data = nullptr;
    return flushed != SQLITE_OK ? flushed : closed;
}

int bufferedRead(sqlite3_file *handle, void *out, int amount, sqlite3_int64 offset)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xRead(file->real, out, amount, offset);
}

int bufferedWrite(sqlite3_file *handle, const void *in, int amount, sqlite3_int64 offset)
{
    BufferedFile *file = cast(handle);
    const std::size_t length = std::size_t(amount);
    if (file->size > 0 && offset == file->start + sqlite3_int64(file->size)
        && file->size + length <= WalWriteBuffer::kCapacity) {
        std::memcpy(file->data + file->size, in, length);
        file->size += length;
        return SQLITE_OK;
    }
    // Not the next byte of what is gathered (the WAL header, a frame rewritten in place): what
    // is gathered goes first, in order.
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    if (length >= WalWriteBuffer::kPiece)
        return realMethods(file).xWrite(file->real, in, amount, offset);
    std::memcpy(file->data, in, length);
    file->size = length;
    file->start = offset;
    return SQLITE_OK;
}

int bufferedTruncate(sqlite3_file *handle, sqlite3_int64 size)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xTruncate(file->real, size);
}

int bufferedSync(sqlite3_file *handle, int flags)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xSync(file->real, flags);
}

int bufferedFileSize(sqlite3_file *handle, sqlite3_int64 *size)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xFileSize(file->real, size);
}

int bufferedLock(sqlite3_file *handle, int level)
{
    return realMethods(cast(handle)).xLock(cast(handle)->real, level);
}

int bufferedUnlock(sqlite3_file *handle, int level)
{
    return realMethods(cast(handle)).xUnlock(cast(handle)->real, level);
}

int bufferedCheckReservedLock(sqlite3_file *handle, int *out)
{
    return realMethods(cast(handle)).xCheckReservedLock(cast(handle)->real, out);
}

int bufferedFileControl(sqlite3_file *handle, int op, void *argument)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xFileControl(file->real, op, argument);
}

int bufferedSectorSize(sqlite3_file *handle)
{
    return realMethods(cast(handle)).xSectorSize(cast(handle)->real);
}

int bufferedDeviceCharacteristics(sqlite3_file *handle)
{
    return realMethods(cast(handle)).xDeviceCharacteristics(cast(handle)->real);
}

// A WAL file has no shared memory and is never memory-mapped; these only pass through.
int bufferedShmMap(sqlite3_file *handle, int page, int pageSize, int extend, void volatile **out)
{
    return realMethods(cast(handle)).xShmMap(cast(handle)->real, page, pageSize, extend, out);
}

int bufferedShmLock(sqlite3_file *handle, int offset, int count, int flags)
{
    return realMethods(cast(handle)).xShmLock(cast(handle)->real, offset, count, flags);
}

void bufferedShmBarrier(sqlite3_file *handle)
{
    realMethods(cast(handle)).xShmBarrier(cast(handle)->real);
}

int bufferedShmUnmap(sqlite3_file *handle, int deleteFlag)
{
    return realMethods(cast(handle)).xShmUnmap(cast(handle)->real, deleteFlag);
}

int bufferedFetch(sqlite3_file *handle, sqlite3_int64 offset, int amount, void **out)
{
    BufferedFile *file = cast(handle);
    if (const int rc = flush(file); rc != SQLITE_OK)
        return rc;
    return realMethods(file).xFetch(file->real, offset, amount, out);
}

int bufferedUnfetch(sqlite3_file *handle, sqlite3_int64 offset, void *pointer)
{
    return realMethods(cast(handle)).xUnfetch(cast(handle)->real, offset, pointer);
}

const sqlite3_io_methods kBufferedMethods = {
    3,
    bufferedClose,
    bufferedRead,
    bufferedWrite,
    bufferedTruncate,
    bufferedSync,
    bufferedFileSize,
    bufferedLock,
    bufferedUnlock,
    bufferedCheckReservedLock,
    bufferedFileControl,
    bufferedSectorSize,
    bufferedDeviceCharacteristics,
    bufferedShmMap,
    bufferedShmLock,
    bufferedShmBarrier,
    bufferedShmUnmap,
    bufferedFetch,
    bufferedUnfetch,
};

int bufferedOpen(sqlite3_vfs *, sqlite3_filename name, sqlite3_file *handle, int flags,
                 int *outFlags)
{
    if (!(flags & SQLITE_OPEN_WAL)) // every other file is the default VFS's, as it is
        return defaultVfs->xOpen(defaultVfs, name, handle, flags, outFlags);
    BufferedFile *file = cast(handle);
    file->base.pMethods = nullptr;
    file->real = reinterpret_cast<sqlite3_file *>(file + 1);
    file->size = 0;
    file->start = 0;
    file->data = static_cast<char *>(sqlite3_malloc64(WalWriteBuffer::kCapacity));
    if (!file->data)
        return SQLITE_NOMEM;
    const int rc = defaultVfs->xOpen(defaultVfs, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK || !file->real->pMethods || file->real->pMethods->iVersion < 3) {
        if (file->real->pMethods)
            file->real->pMethods->xClose(file->real);
        sqlite3_free(file->data);
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    file->base.pMethods = &kBufferedMethods;
    return SQLITE_OK;
}

// The rest of the VFS is the default one's, called with its own sqlite3_vfs.
int vfsDelete(sqlite3_vfs *, const char *name, int syncDir)
{
    return defaultVfs->xDelete(defaultVfs, name, syncDir);
}
int vfsAccess(sqlite3_vfs *, const char *name, int flags, int *out)
{
    return defaultVfs->xAccess(defaultVfs, name, flags, out);
}
int vfsFullPathname(sqlite3_vfs *, const char *name, int size, char *out)
{
    return defaultVfs->xFullPathname(defaultVfs, name, size, out);
}
void *vfsDlOpen(sqlite3_vfs *, const char *name)
{
    return defaultVfs->xDlOpen(defaultVfs, name);
}
void vfsDlError(sqlite3_vfs *, int size, char *out)
{
    defaultVfs->xDlError(defaultVfs, size, out);
}
void (*vfsDlSym(sqlite3_vfs *, void *library, const char *symbol))(void)
{
    return defaultVfs->xDlSym(defaultVfs, library, symbol);
}
void vfsDlClose(sqlite3_vfs *, void *library)
{
    defaultVfs->xDlClose(defaultVfs, library);
}
int vfsRandomness(sqlite3_vfs *, int size, char *out)
{
    return defaultVfs->xRandomness(defaultVfs, size, out);
}
int vfsSleep(sqlite3_vfs *, int microseconds)
{
    return defaultVfs->xSleep(defaultVfs, microseconds);
}
int vfsCurrentTime(sqlite3_vfs *, double *out)
{
    return defaultVfs->xCurrentTime(defaultVfs, out);
}
int vfsGetLastError(sqlite3_vfs *, int size, char *out)
{
    return defaultVfs->xGetLastError(defaultVfs, size, out);
}
int vfsCurrentTimeInt64(sqlite3_vfs *, sqlite3_int64 *out)
{
    return defaultVfs->xCurrentTimeInt64(defaultVfs, out);
}

} // namespace

const char *WalWriteBuffer::vfsName()
{
    static std::once_flag once;
    static bool registered = false;
    std::call_once(once, [] {
        defaultVfs = sqlite3_vfs_find(nullptr);
        if (!defaultVfs || defaultVfs->iVersion < 2 || !defaultVfs->xCurrentTimeInt64)
            return;
        // In sqlite3_vfs's order: version 2 (no system-call hooks), our file size, name, open;
        // then the default VFS's own methods behind forwarders.
        bufferedVfs = sqlite3_vfs {2,
                                   int(sizeof(BufferedFile)) + defaultVfs->szOsFile,
                                   defaultVfs->mxPathname,
                                   nullptr,
                                   "buzz-wal-buffer",
                                   nullptr,
                                   bufferedOpen,
                                   vfsDelete,
                                   vfsAccess,
                                   vfsFullPathname,
                                   vfsDlOpen,
                                   vfsDlError,
                                   vfsDlSym,
                                   vfsDlClose,
                                   vfsRandomness,
                                   vfsSleep,
                                   vfsCurrentTime,
                                   vfsGetLastError,
                                   vfsCurrentTimeInt64,
                                   nullptr,
                                   nullptr,
                                   nullptr};
        registered = sqlite3_vfs_register(&bufferedVfs, 0) == SQLITE_OK;
    });
    return registered ? bufferedVfs.zName : nullptr;
}

} // namespace buzz::relay::store
