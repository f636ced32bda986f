#include "relay/store/sqlite/WalIntegrity.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace buzz::relay::store {

namespace {
// The WAL format (sqlite.org/fileformat2.html#walformat): a 32-byte header, then frames of a
// 24-byte header and one page. All header fields are big-endian; the checksums are computed over
// 32-bit words in the byte order the magic number names.
constexpr std::uint32_t kMagicLittle = 0x377f0682;
constexpr std::uint32_t kMagicBig = 0x377f0683;
constexpr std::uint32_t kFormatVersion = 3007000;
constexpr std::size_t kHeaderBytes = 32;
constexpr std::size_t kFrameHeaderBytes = 24;

std::uint32_t bigEndian(const unsigned char *p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8)
        | std::uint32_t(p[3]);
}

std::uint32_t littleEndian(const unsigned char *p)
{
    return (std::uint32_t(p[3]) << 24) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[1]) << 8)
        | std::uint32_t(p[0]);
}

struct Checksum
{
    std::uint32_t s1 = 0;
    std::uint32_t s2 = 0;
    bool big = false;
    // SQLite's walChecksumBytes: `size` is a multiple of 8.
    void add(const unsigned char *data, std::size_t size)
    {
        for (std::size_t i = 0; i + 8 <= size; i += 8) {
            const std::uint32_t a = big ? bigEndian(data + i) : littleEndian(data + i);
            const std::uint32_t b = big ? bigEndian(data + i + 4) : littleEndian(data + i + 4);
            s1 += a + s2;
            s2 += b + s1;
        }
    }
};

bool validPageSize(std::uint32_t size)
{
    return size >= 512 && size <= 65536 && (size & (size - 1)) == 0;
}

struct FileCloser
{
    void operator()(std::FILE *file) const { std::fclose(file); }
};
} // namespace

std::optional<WalIntegrity::Report> WalIntegrity::inspect(const std::string &walPath)
{
    Report report;
    std::error_code ec;
    if (!std::filesystem::exists(walPath, ec))
        return report;
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(walPath.c_str(), "rb"));
    if (!file)
        return std::nullopt;
    std::array<unsigned char, kHeaderBytes> header {};
    const std::size_t headerRead = std::fread(header.data(), 1, header.size(), file.get());
    if (headerRead < header.size())
        return std::ferror(file.get()) ? std::nullopt : std::optional<Report>(report); // no frames
    const std::uint32_t magic = bigEndian(header.data());
    const std::uint32_t pageSize = bigEndian(header.data() + 8);
    Checksum running;
    running.big = magic == kMagicBig;
    running.add(header.data(), 24);
    const bool headerOk = (magic == kMagicLittle || magic == kMagicBig)
        && bigEndian(header.data() + 4) == kFormatVersion && validPageSize(pageSize)
        && running.s1 == bigEndian(header.data() + 24)
        && running.s2 == bigEndian(header.data() + 28);
    if (!headerOk) {
        // SQLite would ignore the whole log. A header alone (or nothing after it) holds nothing.
        unsigned char probe = 0;
        report.badHeader = std::fread(&probe, 1, 1, file.get()) == 1;
        return report;
    }
    const std::uint32_t salt1 = bigEndian(header.data() + 16);
    const std::uint32_t salt2 = bigEndian(header.data() + 20);
    std::vector<unsigned char> frame(kFrameHeaderBytes + pageSize);
    bool broken = false;
    for (std::int64_t index = 0;; ++index) {
        if (std::fread(frame.data(), 1, frame.size(), file.get()) < frame.size())
            break; // end of file, or a frame cut short by a crash: the end of the log either way
        const bool currentSalts =
            bigEndian(frame.data() + 8) == salt1 && bigEndian(frame.data() + 12) == salt2;
        const bool commit = bigEndian(frame.data() + 4) != 0;
        if (broken) {
            if (currentSalts && commit)
                ++report.lostCommits;
            continue;
        }
        Checksum next = running;
        next.add(frame.data(), 8);
        next.add(frame.data() + kFrameHeaderBytes, pageSize);
        if (!currentSalts || next.s1 != bigEndian(frame.data() + 16)
            || next.s2 != bigEndian(frame.data() + 20)) {
            broken = true;
            report.brokenFrame = index;
            report.brokenOffset =
                static_cast<std::int64_t>(kHeaderBytes) + index * std::int64_t(frame.size());
            continue;
        }
        running = next;
        ++report.validFrames;
        if (commit)
            ++report.validCommits;
    }
    if (std::ferror(file.get()))
        return std::nullopt;
    return report;
}

std::optional<std::string> WalIntegrity::checkBeforeOpen(const std::string &databasePath)
{
    const std::string wal = databasePath + "-wal";
    const auto report = inspect(wal);
    if (!report)
        return "relay database write-ahead log " + wal
            + " cannot be read; refusing to start. Check its permissions and the disk.";
    if (!report->damaged())
        return std::nullopt;
    const std::string what = report->badHeader
        ? std::string("its header is damaged, so SQLite would ignore every transaction in it")
        : "frame " + std::to_string(report->brokenFrame) + " (byte "
            + std::to_string(report->brokenOffset) + ") is damaged, and "
            + std::to_string(report->lostCommits)
            + " transactions committed after it would be lost without a word";
    return "relay database write-ahead log " + wal + " is damaged: " + what
        + "; refusing to start so that acknowledged events are not dropped. Restore the data "
          "directory from a backup. To keep only what precedes the damage instead, copy the "
          "directory aside first, then run: sqlite3 "
        + databasePath + " 'PRAGMA wal_checkpoint(TRUNCATE)'";
}

} // namespace buzz::relay::store
