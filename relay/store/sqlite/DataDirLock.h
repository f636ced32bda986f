#pragma once

#include <memory>
#include <string>

namespace buzz::relay::store {

// One relay per data directory: an exclusive flock(2) on `relay.lock` there, held as long as this
// object lives. Two relays writing one SQLite file would both serve, and neither would deliver
// live what the other stored. The kernel drops the lock when the process ends, however it ends
// (a SIGKILL leaves no stale lock behind); the file itself stays, holding the owner's pid.
class DataDirLock
{
public:
    static constexpr const char *kFileName = "relay.lock";

    // The lock, or null with `error` saying who holds it and what to do.
    static std::unique_ptr<DataDirLock> acquire(const std::string &dataDir, std::string &error);
    ~DataDirLock();
    DataDirLock(const DataDirLock &) = delete;
    DataDirLock &operator=(const DataDirLock &) = delete;

private:
    explicit DataDirLock(int fd)
        : m_fd(fd)
    { }
    int m_fd = -1;
};

} // namespace buzz::relay::store
