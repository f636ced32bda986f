#include "relay/store/postgres/PgConnection.h"

#include "relay/store/postgres/LibPq.h"

#include <libpq-fe.h>

#include <QLoggingCategory>

#include <cstring>
#include <utility>

#include <endian.h>
#include <poll.h>

Q_LOGGING_CATEGORY(lcPg, "buzz.relay.store.pg")

namespace buzz::relay::store {

namespace {
// Type OIDs (src/include/catalog/pg_type.dat); the client headers do not carry them.
constexpr unsigned kBool = 16, kBytea = 17, kInt8 = 20, kInt4 = 23, kText = 25, kTimestamptz = 1184,
                   kJsonb = 3802;
constexpr unsigned kByteaArray = 1001, kInt4Array = 1007, kTextArray = 1009,
                   kTimestamptzArray = 1185;
// timestamptz counts microseconds from 2000-01-01 00:00:00 UTC.
constexpr std::int64_t kPgEpochUnixSeconds = 946'684'800;

void appendBe32(std::string &out, std::uint32_t value)
{
    const std::uint32_t be = htobe32(value);
    out.append(reinterpret_cast<const char *>(&be), 4);
}

void appendBe64(std::string &out, std::uint64_t value)
{
    const std::uint64_t be = htobe64(value);
    out.append(reinterpret_cast<const char *>(&be), 8);
}

std::string be64(std::int64_t value)
{
    std::string out;
    appendBe64(out, static_cast<std::uint64_t>(value));
    return out;
}

std::int64_t pgMicros(std::int64_t unixSeconds)
{
    return (unixSeconds - kPgEpochUnixSeconds) * 1'000'000;
}

// Binary array: ndim, has-null flag, element type, (length, lower bound) per dimension, then each
// element as its length and bytes.
template<class Elements, class Encode>
std::string binaryArray(unsigned elementType, const Elements &elements, Encode encode)
{
    std::string out;
    const bool empty = elements.empty();
    appendBe32(out, empty ? 0 : 1);
    appendBe32(out, 0);
    appendBe32(out, elementType);
    if (empty)
        return out;
    appendBe32(out, static_cast<std::uint32_t>(elements.size()));
    appendBe32(out, 1);
    std::string element;
    for (const auto &value : elements) {
        element.clear();
        encode(element, value);
        appendBe32(out, static_cast<std::uint32_t>(element.size()));
        out += element;
    }
    return out;
}
} // namespace

// --- PgParams ---------------------------------------------------------------------------------

void PgParams::add(unsigned type, std::string value, int format)
{
    m_types.push_back(type);
    m_lengths.push_back(static_cast<int>(value.size()));
    m_values.push_back(std::move(value));
    m_null.push_back(false);
    m_formats.push_back(format);
}

PgParams &PgParams::int64(std::int64_t value)
{
    add(kInt8, be64(value), 1);
    return *this;
}

PgParams &PgParams::int32(int value)
{
    std::string out;
    appendBe32(out, static_cast<std::uint32_t>(value));
    add(kInt4, std::move(out), 1);
    return *this;
}

PgParams &PgParams::boolean(bool value)
{
    add(kBool, std::string(1, value ? '\1' : '\0'), 1);
    return *this;
}

PgParams &PgParams::text(std::string_view value)
{
    add(kText, std::string(value), 1);
    return *this;
}

PgParams &PgParams::optionalText(const std::optional<std::string> &value)
{
    return value ? text(*value) : null(kText);
}

PgParams &PgParams::optionalInt64(const std::optional<std::int64_t> &value)
{
    return value ? int64(*value) : null(kInt8);
}

PgParams &PgParams::bytes(std::string_view value)
{
    add(kBytea, std::string(value), 1);
    return *this;
}

PgParams &PgParams::bytes(const std::uint8_t *data, std::size_t size)
{
    return bytes(std::string_view(reinterpret_cast<const char *>(data), size));
}

PgParams &PgParams::timestamp(std::int64_t unixSeconds)
{
    add(kTimestamptz, be64(pgMicros(unixSeconds)), 1);
    return *this;
}

PgParams &PgParams::optionalTimestamp(const std::optional<std::int64_t> &unixSeconds)
{
    return unixSeconds ? timestamp(*unixSeconds) : null(kTimestamptz);
}

PgParams &PgParams::jsonb(std::string_view json)
{
    std::string out;
    out.reserve(json.size() + 1);
    out.push_back('\1'); // jsonb binary format version
    out.append(json);
    add(kJsonb, std::move(out), 1);
    return *this;
}

PgParams &PgParams::textArray(std::span<const std::string> values)
{
    add(kTextArray,
        binaryArray(kText, values, [](std::string &out, const std::string &v) { out += v; }), 1);
    return *this;
}

PgParams &PgParams::optionalTextArray(std::span<const std::optional<std::string>> values)
{
    // As binaryArray, with the has-null flag set and -1 as the length of a NULL element.
    std::string out;
    appendBe32(out, values.empty() ? 0 : 1);
    appendBe32(out, 1);
    appendBe32(out, kText);
    if (!values.empty()) {
        appendBe32(out, static_cast<std::uint32_t>(values.size()));
        appendBe32(out, 1);
        for (const auto &value : values) {
            appendBe32(out, value ? static_cast<std::uint32_t>(value->size()) : 0xffffffffu);
            if (value)
                out += *value;
        }
    }
    add(kTextArray, std::move(out), 1);
    return *this;
}

PgParams &PgParams::int32Array(std::span<const int> values)
{
    add(kInt4Array,
        binaryArray(
            kInt4, values,
            [](std::string &out, int v) { appendBe32(out, static_cast<std::uint32_t>(v)); }),
        1);
    return *this;
}

PgParams &PgParams::bytesArray(std::span<const std::string> values)
{
    add(kByteaArray,
        binaryArray(kBytea, values, [](std::string &out, const std::string &v) { out += v; }), 1);
    return *this;
}

PgParams &PgParams::timestampArray(std::span<const std::int64_t> unixSeconds)
{
    add(kTimestamptzArray,
        binaryArray(kTimestamptz, unixSeconds,
                    [](std::string &out, std::int64_t v) {
                        appendBe64(out, static_cast<std::uint64_t>(pgMicros(v)));
                    }),
        1);
    return *this;
}

PgParams &PgParams::null(unsigned type)
{
    add(type, std::string(), 1);
    m_null.back() = true;
    return *this;
}

std::vector<const char *> PgParams::values() const
{
    std::vector<const char *> out(m_values.size());
    for (std::size_t i = 0; i < m_values.size(); ++i)
        out[i] = m_null[i] ? nullptr : m_values[i].data();
    return out;
}

// --- PgConnection -----------------------------------------------------------------------------

PgConnection::~PgConnection()
{
    if (m_connection)
        PQfinish(m_connection);
}

std::unique_ptr<PgConnection> PgConnection::open(const std::string &url, std::string &error,
                                                 const char *targetSessionAttrs)
{
    if (!LibPq::load(error)) // loaded on first use: see LibPq.h
        return nullptr;
    std::unique_ptr<PgConnection> connection(new PgConnection());
    connection->m_url = url;
    // The URL first (expanded), then what the relay insists on: later keywords override it.
    const char *keywords[] = {"dbname", "application_name", "connect_timeout",
                              targetSessionAttrs ? "target_session_attrs" : nullptr, nullptr};
    const char *values[] = {url.c_str(), kApplicationName, "10", targetSessionAttrs, nullptr};
    connection->m_connection = PQconnectdbParams(keywords, values, 1);
    if (!connection->m_connection || PQstatus(connection->m_connection) != CONNECTION_OK) {
        error =
            connection->m_connection ? PQerrorMessage(connection->m_connection) : "out of memory";
        while (!error.empty() && (error.back() == '\n' || error.back() == ' '))
            error.pop_back();
        return nullptr;
    }
    // Quiet NOTICEs ("relation already exists, skipping") instead of libpq printing them.
    PQsetNoticeProcessor(
        connection->m_connection, [](void *, const char *) {}, nullptr);
    return connection;
}

PgResult PgConnection::exec(const std::string &sql)
{
    beforeSend(sql);
    sendDeferred(); // a failure is remembered (deferredFailed)
    m_roundTrips.fetch_add(1, std::memory_order_relaxed);
    return PgResult(PQexec(m_connection, sql.c_str()));
}

std::vector<PgResult> PgConnection::execAll(const std::string &sql)
{
    beforeSend(sql);
    sendDeferred();
    m_roundTrips.fetch_add(1, std::memory_order_relaxed);
    std::vector<PgResult> results;
    if (!PQsendQuery(m_connection, sql.c_str()))
        return results;
    while (pg_result *result = PQgetResult(m_connection))
        results.emplace_back(result);
    return results;
}

bool PgConnection::execOk(const std::string &sql)
{
    PgResult result = exec(sql);
    if (!result.ok()) {
        qCWarning(lcPg) << "statement failed:" << result.message().c_str() << "in"
                        << sql.substr(0, 120).c_str();
        return false;
    }
    return true;
}

const char *PgConnection::preparedName(const std::string &sql, const PgParams &params,
                                       PgResult &failed)
{
    auto prepared = m_prepared.find(sql);
    if (prepared == m_prepared.end()) {
        sendDeferred(); // a failure is remembered; PQprepare has a round trip of its own
        const std::string name = "buzz_" + std::to_string(m_prepared.size() + 1);
        m_roundTrips.fetch_add(1, std::memory_order_relaxed);
        PgResult made(PQprepare(m_connection, name.c_str(), sql.c_str(), params.size(),
                                reinterpret_cast<const Oid *>(params.types())));
        if (!made.ok()) {
            failed = std::move(made);
            return nullptr;
        }
        prepared = m_prepared.emplace(sql, name).first;
    }
    return prepared->second.c_str();
}

PgResult PgConnection::run(const std::string &sql, const PgParams &params)
{
    beforeSend(sql);
    PgResult failed;
    const char *name = preparedName(sql, params, failed);
    if (!name)
        return failed;
    if (!m_deferred.empty())
        return std::move(roundTrip(name, &params, {}).front());
    const std::vector<const char *> values = params.values();
    m_roundTrips.fetch_add(1, std::memory_order_relaxed);
    return PgResult(PQexecPrepared(m_connection, name, params.size(), values.data(),
                                   params.lengths(), params.formats(), 1));
}

void PgConnection::defer(std::string sql)
{
    m_deferred.push_back(Deferred {std::move(sql), nullptr, {}});
}

void PgConnection::defer(const std::string &sql, PgParams params)
{
    PgResult failed;
    const char *name = preparedName(sql, params, failed);
    if (!name) {
        if (m_deferredError.empty())
            m_deferredError = "prepare: " + failed.message();
        return;
    }
    m_deferred.push_back(Deferred {sql, name, std::move(params)});
}

void PgConnection::beforeSend(std::string_view sql)
{
    if (!m_beforeSend || m_inBeforeSend)
        return;
    m_inBeforeSend = true;
    m_beforeSend(sql);
    m_inBeforeSend = false;
}

bool PgConnection::withdraw(std::string_view sql)
{
    if (m_deferred.empty() || m_deferred.back().prepared || m_deferred.back().sql != sql)
        return false;
    m_deferred.pop_back();
    return true;
}

bool PgConnection::sendDeferred()
{
    if (m_deferred.empty())
        return true;
    roundTrip(nullptr, nullptr, {});
    return m_lastDeferredOk;
}

std::vector<PgResult> PgConnection::runThen(const std::string &sql, const PgParams &params,
                                            std::span<const std::string> then)
{
    beforeSend(sql);
    PgResult failed;
    const char *name = preparedName(sql, params, failed);
    if (!name) {
        std::vector<PgResult> results;
        results.push_back(std::move(failed));
        results.resize(1 + then.size());
        return results;
    }
    return roundTrip(name, &params, then);
}

std::vector<PgResult> PgConnection::pipeline(std::span<const std::string> statements)
{
    for (const std::string &sql : statements)
        beforeSend(sql);
    return roundTrip(nullptr, nullptr, statements);
}

std::vector<PgResult> PgConnection::roundTrip(const char *prepared, const PgParams *params,
                                              std::span<const std::string> then)
{
    const std::vector<Deferred> deferred = std::exchange(m_deferred, {});
    const std::size_t expected = deferred.size() + (prepared ? 1 : 0) + then.size();
    const auto sendPlain = [this](const std::string &sql) {
        return PQsendQueryParams(m_connection, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr,
                                 1)
            == 1;
    };
    std::vector<PgResult> results;
    results.reserve(expected);
    m_roundTrips.fetch_add(1, std::memory_order_relaxed);
    bool sent = m_connection && PQenterPipelineMode(m_connection) == 1;
    const auto sendPrepared = [this](const char *name, const PgParams &values) {
        const std::vector<const char *> pointers = values.values();
        return PQsendQueryPrepared(m_connection, name, values.size(), pointers.data(),
                                   values.lengths(), values.formats(), 1)
            == 1;
    };
    for (const Deferred &statement : deferred) {
        sent = sent
            && (statement.prepared ? sendPrepared(statement.prepared, statement.params)
                                   : sendPlain(statement.sql));
    }
    if (prepared)
        sent = sent && sendPrepared(prepared, *params);
    for (const std::string &sql : then)
        sent = sent && sendPlain(sql);
    sent = sent && PQpipelineSync(m_connection) == 1;
    if (sent) {
        // Each statement's result followed by a null, then the sync point's result. Two nulls in a
        // row: nothing more will come (the connection broke).
        bool afterNull = false;
        for (;;) {
            pg_result *result = PQgetResult(m_connection);
            if (!result) {
                if (afterNull)
                    break;
                afterNull = true;
                continue;
            }
            afterNull = false;
            if (PQresultStatus(result) == PGRES_PIPELINE_SYNC) {
                PQclear(result);
                break;
            }
            results.emplace_back(result);
        }
    }
    if (m_connection && !PQexitPipelineMode(m_connection))
        qCWarning(lcPg) << "cannot leave pipeline mode:" << lastError().c_str();
    results.resize(expected); // missing ones (a broken connection) stay not ok
    m_lastDeferredOk = true;
    for (std::size_t i = 0; i < deferred.size(); ++i) {
        if (results[i].ok())
            continue;
        m_lastDeferredOk = false;
        if (m_deferredError.empty())
            m_deferredError = deferred[i].sql.substr(0, 60) + ": " + results[i].message();
    }
    results.erase(results.begin(), results.begin() + std::ptrdiff_t(deferred.size()));
    return results;
}

bool PgConnection::healthy() const
{
    return m_connection && PQstatus(m_connection) == CONNECTION_OK;
}

bool PgConnection::reconnect()
{
    m_prepared.clear();
    m_deferred.clear(); // statements of a transaction the server has rolled back
    PQreset(m_connection);
    if (!healthy())
        return false;
    PQsetNoticeProcessor(
        m_connection, [](void *, const char *) {}, nullptr);
    return true;
}

std::string PgConnection::lastError() const
{
    std::string error = m_connection ? PQerrorMessage(m_connection) : "no connection";
    while (!error.empty() && (error.back() == '\n' || error.back() == ' '))
        error.pop_back();
    return error;
}

int PgConnection::backendPid() const
{
    return m_connection ? PQbackendPID(m_connection) : 0;
}

bool PgConnection::inTransaction() const
{
    if (!m_connection)
        return false;
    const PGTransactionStatusType status = PQtransactionStatus(m_connection);
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR;
}

int PgConnection::socket() const
{
    return m_connection ? PQsocket(m_connection) : -1;
}

bool PgConnection::consumeInput()
{
    return m_connection && PQconsumeInput(m_connection) == 1 && healthy();
}

bool PgConnection::stillConnected()
{
    // A few rounds at most: each reads what one readable wake-up holds.
    for (int round = 0; round < 4 && healthy(); ++round) {
        pollfd pending {PQsocket(m_connection), POLLIN, 0};
        if (::poll(&pending, 1, 0) <= 0)
            return true; // nothing waiting: nothing says it broke
        if (PQconsumeInput(m_connection) != 1)
            return false;
    }
    return healthy();
}

std::vector<std::string> PgConnection::takeNotifications()
{
    std::vector<std::string> payloads;
    while (PGnotify *notification = m_connection ? PQnotifies(m_connection) : nullptr) {
        payloads.emplace_back(notification->extra ? notification->extra : "");
        PQfreemem(notification);
    }
    return payloads;
}

std::string PgConnection::describe() const
{
    if (!m_connection)
        return "(not connected)";
    return std::string(PQhost(m_connection)) + ":" + PQport(m_connection) + "/"
        + PQdb(m_connection);
}

} // namespace buzz::relay::store
