#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::store {

// Checks a SQLite write-ahead log before SQLite opens it. SQLite's recovery keeps the frames up to
// the first one whose salts or checksum do not match and silently drops everything after, so one
// damaged frame in the middle of the log loses every transaction committed after it, each of them
// acknowledged to a client. This walks the frames as SQLite does (header checksum, then the
// cumulative frame checksums under the header's salts) and looks past the first break: a later
// commit frame that carries the log's current salts was written after the broken frame in this
// same generation of the log, so committed transactions would be lost: damage.
//
// What is normal and never damage: frames of an older generation after the valid ones (old salts:
// the log restarted from its beginning after a checkpoint), and a torn or unfinished last
// transaction after a crash (frames with the current salts but no commit frame after the break,
// or a file ending mid-frame): SQLite drops it, and it was never acknowledged. Damage that hits
// only the very last commit frame cannot be told from a transaction torn by a crash and is not
// reported.
class WalIntegrity
{
public:
    struct Report
    {
        std::int64_t validFrames = 0; // frames SQLite's recovery would keep
        std::int64_t validCommits = 0; // transactions among them
        std::int64_t brokenFrame = -1; // index of the first frame that breaks the chain, or -1
        std::int64_t brokenOffset = 0; // its byte offset in the file
        std::int64_t lostCommits = 0; // commit frames of this generation after the break
        bool badHeader = false; // the 32-byte header fails its own checks, with frames after it
        bool damaged() const { return badHeader || lostCommits > 0; }
    };

    // nullopt when the file cannot be read (a missing file is an empty log: a report of zeros).
    static std::optional<Report> inspect(const std::string &walPath);
    // A refusal naming the file, what was found and what to do, or nullopt when it is fine.
    static std::optional<std::string> checkBeforeOpen(const std::string &databasePath);
};

} // namespace buzz::relay::store
