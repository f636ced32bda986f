#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct pg_result;

namespace buzz::relay::store {

// One statement's result, in binary format. Column readers take (row, column), 0-based.
class PgResult
{
public:
    PgResult() = default;
    explicit PgResult(pg_result *result);
    PgResult(PgResult &&other) noexcept;
    PgResult &operator=(PgResult &&other) noexcept;
    PgResult(const PgResult &) = delete;
    PgResult &operator=(const PgResult &) = delete;
    ~PgResult();

    // The statement ran (a command, or rows to read).
    bool ok() const;
    int rows() const;
    // Bytes libpq holds for the result, its rows included.
    std::size_t memoryBytes() const;
    std::int64_t affected() const; // rows an INSERT/UPDATE/DELETE changed
    // The command tag ("COMMIT", or "ROLLBACK" for a COMMIT of an aborted transaction).
    std::string_view commandStatus() const;
    bool isNull(int row, int column) const;
    // int2, int4, int8, bool, timestamptz (as unix seconds, rounded down) and pg_lsn.
    std::int64_t int64(int row, int column) const;
    std::optional<std::int64_t> optionalInt64(int row, int column) const;
    // text, varchar, name, and jsonb (its text, after the binary format's version byte).
    std::string_view text(int row, int column) const;
    std::optional<std::string> optionalText(int row, int column) const;
    std::string_view bytes(int row, int column) const; // bytea
    // timestamptz as unix milliseconds, rounded down.
    std::int64_t timestampMs(int row, int column) const;

    // Why it failed: SQLSTATE (five characters, empty when the connection broke before the server
    // said anything) and the server's message.
    std::string sqlState() const;
    std::string message() const;

private:
    pg_result *m_result = nullptr;
};

} // namespace buzz::relay::store
