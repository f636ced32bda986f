#include "relay/store/sqlite/DataDirLock.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace buzz::relay::store {

namespace {
// The pid the holder wrote into the file, or "" when it cannot be read.
std::string holderPid(int fd)
{
    char text[32] = {};
    const ssize_t read = ::pread(fd, text, sizeof text - 1, 0);
    if (read <= 0)
        return {};
    std::string pid(text, static_cast<std::size_t>(read));
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
        pid.pop_back();
    return pid.find_first_not_of("0123456789") == std::string::npos ? pid : std::string();
}
} // namespace

std::unique_ptr<DataDirLock> DataDirLock::acquire(const std::string &dataDir, std::string &error)
{
    const std::string path = (std::filesystem::path(dataDir) / kFileName).string();
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int cause = errno;
        if (cause == EWOULDBLOCK) {
            const std::string pid = holderPid(fd);
            error = "data directory " + dataDir + " is in use by another relay"
                + (pid.empty() ? std::string() : " (pid " + pid + ")") + ", which holds " + path
                + "; refusing to start a second relay on the same database. Stop the other "
                  "relay first, or give this one a data directory of its own.";
        } else {
            error = "cannot lock " + path + ": " + std::strerror(cause);
        }
        ::close(fd);
        return nullptr;
    }
    // Who holds it, for the refusal a second relay prints (informative only: the flock decides).
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
        // The lock holds without the pid.
    }
    return std::unique_ptr<DataDirLock>(new DataDirLock(fd));
}

DataDirLock::~DataDirLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the flock
}

} // namespace buzz::relay::store
