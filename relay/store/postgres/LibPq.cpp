#include "relay/store/postgres/LibPq.h"

#include <libpq-fe.h>

#include <dlfcn.h>

// Every libpq function PgConnection calls (a new call there needs its line here and below).
#define BUZZ_LIBPQ_FUNCTIONS(X)                                                                    \
    X(PQbackendPID)                                                                                \
    X(PQclear)                                                                                     \
    X(PQcmdStatus)                                                                                 \
    X(PQcmdTuples)                                                                                 \
    X(PQconsumeInput)                                                                              \
    X(PQconnectdbParams)                                                                           \
    X(PQdb)                                                                                        \
    X(PQenterPipelineMode)                                                                         \
    X(PQerrorMessage)                                                                              \
    X(PQexec)                                                                                      \
    X(PQexecPrepared)                                                                              \
    X(PQexitPipelineMode)                                                                          \
    X(PQfformat)                                                                                   \
    X(PQfinish)                                                                                    \
    X(PQfreemem)                                                                                   \
    X(PQftype)                                                                                     \
    X(PQgetResult)                                                                                 \
    X(PQgetisnull)                                                                                 \
    X(PQgetlength)                                                                                 \
    X(PQgetvalue)                                                                                  \
    X(PQhost)                                                                                      \
    X(PQnotifies)                                                                                  \
    X(PQpipelineSync)                                                                              \
    X(PQntuples)                                                                                   \
    X(PQport)                                                                                      \
    X(PQprepare)                                                                                   \
    X(PQputCopyData)                                                                               \
    X(PQputCopyEnd)                                                                                \
    X(PQreset)                                                                                     \
    X(PQresultErrorField)                                                                          \
    X(PQresultErrorMessage)                                                                        \
    X(PQresultMemorySize)                                                                          \
    X(PQresultStatus)                                                                              \
    X(PQsendQuery)                                                                                 \
    X(PQsendQueryParams)                                                                           \
    X(PQsendQueryPrepared)                                                                         \
    X(PQsetNoticeProcessor)                                                                        \
    X(PQsocket)                                                                                    \
    X(PQstatus)                                                                                    \
    X(PQtransactionStatus)

namespace {

struct Functions
{
#define BUZZ_LIBPQ_POINTER(name) decltype(&::name) name = nullptr;
    BUZZ_LIBPQ_FUNCTIONS(BUZZ_LIBPQ_POINTER)
#undef BUZZ_LIBPQ_POINTER
};

struct Library
{
    bool loaded = false;
    std::string error;
    Functions functions;
};

const Library &library()
{
    // The SONAME, not libpq.so (that link is only in libpq-dev). Never closed: PGconn and PGresult
    // objects live as long as the process may need them.
    static const Library library = [] {
        Library result;
        const std::string prefix =
            "the PostgreSQL client library (libpq.so.5) could not be loaded: ";
        void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            result.error = prefix + (why ? why : "unknown error");
            return result;
        }
#define BUZZ_LIBPQ_RESOLVE(name)                                                                   \
    result.functions.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));             \
    if (!result.functions.name) {                                                                  \
        result.error = prefix + "it has no " #name;                                                \
        return result;                                                                             \
    }
        BUZZ_LIBPQ_FUNCTIONS(BUZZ_LIBPQ_RESOLVE)
#undef BUZZ_LIBPQ_RESOLVE
        result.loaded = true;
        return result;
    }();
    return library;
}

const Functions &pq()
{
    return library().functions;
}

} // namespace

namespace buzz::relay::store {

bool LibPq::load(std::string &error)
{
    if (!library().loaded)
        error = library().error;
    return library().loaded;
}

bool LibPq::isLoaded()
{
    return library().loaded;
}

} // namespace buzz::relay::store

// The definitions PgConnection links against (libpq-fe.h declares them extern "C", so a signature
// that differs from libpq's fails to compile). Only reached after LibPq::load succeeded.
extern "C" {

int PQbackendPID(const PGconn *conn)
{
    return pq().PQbackendPID(conn);
}

void PQclear(PGresult *res)
{
    pq().PQclear(res);
}

char *PQcmdStatus(PGresult *res)
{
    return pq().PQcmdStatus(res);
}

char *PQcmdTuples(PGresult *res)
{
    return pq().PQcmdTuples(res);
}

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname)
{
    return pq().PQconnectdbParams(keywords, values, expand_dbname);
}

int PQconsumeInput(PGconn *conn)
{
    return pq().PQconsumeInput(conn);
}

char *PQdb(const PGconn *conn)
{
    return pq().PQdb(conn);
}

int PQenterPipelineMode(PGconn *conn)
{
    return pq().PQenterPipelineMode(conn);
}

char *PQerrorMessage(const PGconn *conn)
{
    return pq().PQerrorMessage(conn);
}

void PQfreemem(void *ptr)
{
    pq().PQfreemem(ptr);
}

PGresult *PQexec(PGconn *conn, const char *query)
{
    return pq().PQexec(conn, query);
}

PGresult *PQexecPrepared(PGconn *conn, const char *stmtName, int nParams,
                         const char *const *paramValues, const int *paramLengths,
                         const int *paramFormats, int resultFormat)
{
    return pq().PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats,
                               resultFormat);
}

int PQexitPipelineMode(PGconn *conn)
{
    return pq().PQexitPipelineMode(conn);
}

int PQfformat(const PGresult *res, int field_num)
{
    return pq().PQfformat(res, field_num);
}

void PQfinish(PGconn *conn)
{
    pq().PQfinish(conn);
}

Oid PQftype(const PGresult *res, int field_num)
{
    return pq().PQftype(res, field_num);
}

PGresult *PQgetResult(PGconn *conn)
{
    return pq().PQgetResult(conn);
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num)
{
    return pq().PQgetisnull(res, tup_num, field_num);
}

int PQgetlength(const PGresult *res, int tup_num, int field_num)
{
    return pq().PQgetlength(res, tup_num, field_num);
}

char *PQgetvalue(const PGresult *res, int tup_num, int field_num)
{
    return pq().PQgetvalue(res, tup_num, field_num);
}

char *PQhost(const PGconn *conn)
{
    return pq().PQhost(conn);
}

int PQntuples(const PGresult *res)
{
    return pq().PQntuples(res);
}

int PQpipelineSync(PGconn *conn)
{
    return pq().PQpipelineSync(conn);
}

char *PQport(const PGconn *conn)
{
    return pq().PQport(conn);
}

PGresult *PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams,
                    const Oid *paramTypes)
{
    return pq().PQprepare(conn, stmtName, query, nParams, paramTypes);
}

int PQputCopyData(PGconn *conn, const char *buffer, int nbytes)
{
    return pq().PQputCopyData(conn, buffer, nbytes);
}

int PQputCopyEnd(PGconn *conn, const char *errormsg)
{
    return pq().PQputCopyEnd(conn, errormsg);
}

void PQreset(PGconn *conn)
{
    pq().PQreset(conn);
}

char *PQresultErrorField(const PGresult *res, int fieldcode)
{
    return pq().PQresultErrorField(res, fieldcode);
}

char *PQresultErrorMessage(const PGresult *res)
{
    return pq().PQresultErrorMessage(res);
}

size_t PQresultMemorySize(const PGresult *res)
{
    return pq().PQresultMemorySize(res);
}

ExecStatusType PQresultStatus(const PGresult *res)
{
    return pq().PQresultStatus(res);
}

int PQsendQuery(PGconn *conn, const char *query)
{
    return pq().PQsendQuery(conn, query);
}

int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                      const char *const *paramValues, const int *paramLengths,
                      const int *paramFormats, int resultFormat)
{
    return pq().PQsendQueryParams(conn, command, nParams, paramTypes, paramValues, paramLengths,
                                  paramFormats, resultFormat);
}

int PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams,
                        const char *const *paramValues, const int *paramLengths,
                        const int *paramFormats, int resultFormat)
{
    return pq().PQsendQueryPrepared(conn, stmtName, nParams, paramValues, paramLengths,
                                    paramFormats, resultFormat);
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg)
{
    return pq().PQsetNoticeProcessor(conn, proc, arg);
}

int PQsocket(const PGconn *conn)
{
    return pq().PQsocket(conn);
}

PGnotify *PQnotifies(PGconn *conn)
{
    return pq().PQnotifies(conn);
}

ConnStatusType PQstatus(const PGconn *conn)
{
    return pq().PQstatus(conn);
}

PGTransactionStatusType PQtransactionStatus(const PGconn *conn)
{
    return pq().PQtransactionStatus(conn);
}

} // extern "C"
