#include "relay/store/postgres/PgResult.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include <endian.h>

namespace buzz::relay::store {

namespace {
// Type OIDs (src/include/catalog/pg_type.dat) of the columns read in binary format.
constexpr unsigned kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kTimestamptz = 1184, kLsn = 3220,
                   kJsonb = 3802;
// timestamptz counts microseconds from 2000-01-01 00:00:00 UTC.
constexpr std::int64_t kPgEpochUnixSeconds = 946'684'800;

std::int64_t floorDiv(std::int64_t value, std::int64_t divisor)
{
    const std::int64_t q = value / divisor;
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? q - 1 : q;
}
} // namespace

PgResult::PgResult(pg_result *result)
    : m_result(result)
{ }

PgResult::PgResult(PgResult &&other) noexcept
    : m_result(std::exchange(other.m_result, nullptr))
{ }

PgResult &PgResult::operator=(PgResult &&other) noexcept
{
    if (this != &other) {
        if (m_result)
            PQclear(m_result);
        m_result = std::exchange(other.m_result, nullptr);
    }
    return *this;
}

PgResult::~PgResult()
{
    if (m_result)
        PQclear(m_result);
}

bool PgResult::ok() const
{
    if (!m_result)
        return false;
    const ExecStatusType status = PQresultStatus(m_result);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

int PgResult::rows() const
{
    return m_result ? PQntuples(m_result) : 0;
}

std::size_t PgResult::memoryBytes() const
{
    return m_result ? PQresultMemorySize(m_result) : 0;
}

std::string_view PgResult::commandStatus() const
{
    const char *status = m_result ? PQcmdStatus(m_result) : nullptr;
    return status ? std::string_view(status) : std::string_view();
}

std::int64_t PgResult::affected() const
{
    if (!m_result)
        return 0;
    const char *count = PQcmdTuples(m_result);
    return count && *count ? std::strtoll(count, nullptr, 10) : 0;
}

bool PgResult::isNull(int row, int column) const
{
    return PQgetisnull(m_result, row, column) != 0;
}

std::int64_t PgResult::int64(int row, int column) const
{
    if (isNull(row, column))
        return 0;
    const char *value = PQgetvalue(m_result, row, column);
    if (PQfformat(m_result, column) == 0) {
        if (PQftype(m_result, column) == kBool)
            return value[0] == 't' ? 1 : 0;
        return std::strtoll(value, nullptr, 10);
    }
    switch (PQftype(m_result, column)) {
    case kBool:
        return value[0] != 0;
    case kInt2: {
        std::uint16_t be;
        std::memcpy(&be, value, 2);
        return static_cast<std::int16_t>(be16toh(be));
    }
    case kInt4: {
        std::uint32_t be;
        std::memcpy(&be, value, 4);
        return static_cast<std::int32_t>(be32toh(be));
    }
    case kTimestamptz:
        return floorDiv(timestampMs(row, column), 1000);
    case kInt8:
    case kLsn:
    default: {
        std::uint64_t be;
        std::memcpy(&be, value, 8);
        return static_cast<std::int64_t>(be64toh(be));
    }
    }
}

std::int64_t PgResult::timestampMs(int row, int column) const
{
    if (isNull(row, column))
        return 0;
    std::uint64_t be;
    std::memcpy(&be, PQgetvalue(m_result, row, column), 8);
    const auto micros = static_cast<std::int64_t>(be64toh(be));
    return floorDiv(micros, 1000) + kPgEpochUnixSeconds * 1000;
}

std::optional<std::int64_t> PgResult::optionalInt64(int row, int column) const
{
    if (isNull(row, column))
        return std::nullopt;
    return int64(row, column);
}

std::string_view PgResult::text(int row, int column) const
{
    if (isNull(row, column))
        return {};
    const char *value = PQgetvalue(m_result, row, column);
    std::size_t length = static_cast<std::size_t>(PQgetlength(m_result, row, column));
    if (PQfformat(m_result, column) == 1 && PQftype(m_result, column) == kJsonb && length > 0) {
        ++value; // the binary format's version byte
        --length;
    }
    return {value, length};
}

std::optional<std::string> PgResult::optionalText(int row, int column) const
{
    if (isNull(row, column))
        return std::nullopt;
    return std::string(text(row, column));
}

std::string_view PgResult::bytes(int row, int column) const
{
    if (isNull(row, column))
        return {};
    return {PQgetvalue(m_result, row, column),
            static_cast<std::size_t>(PQgetlength(m_result, row, column))};
}

std::string PgResult::sqlState() const
{
    if (!m_result)
        return {};
    const char *state = PQresultErrorField(m_result, PG_DIAG_SQLSTATE);
    return state ? std::string(state) : std::string();
}

std::string PgResult::message() const
{
    if (!m_result)
        return "no result (connection lost)";
    if (PQresultStatus(m_result) == PGRES_PIPELINE_ABORTED)
        return "not run: an earlier statement of its round trip failed";
    const char *primary = PQresultErrorField(m_result, PG_DIAG_MESSAGE_PRIMARY);
    return primary ? std::string(primary) : std::string(PQresultErrorMessage(m_result));
}

} // namespace buzz::relay::store
