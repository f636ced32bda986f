#pragma once

// The PostgreSQL pair a bench runs against: the one given (--database-url, --read-database-url) or
// a throwaway primary + streaming hot standby it starts itself with tests/support/pg-cluster.sh
// (fsync on, as a real server runs) and stops when it is destroyed. Each bench phase gets an empty
// schema of its own on it (dropped at the end), already replayed on the standby.

#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QTemporaryDir;

namespace buzz::relay::bench {

struct PgUrls
{
    std::string writer; // the primary
    std::string standby; // its streaming hot standby (may be empty: writer only)
};

class BenchPostgres
{
public:
    // From `arguments` (--database-url URL [--read-database-url URL]), else a pair of its own when
    // PostgreSQL 15 is installed. absent() then says why there is none.
    explicit BenchPostgres(const QStringList &arguments);
    ~BenchPostgres();
    BenchPostgres(const BenchPostgres &) = delete;
    BenchPostgres &operator=(const BenchPostgres &) = delete;

    bool available() const { return m_absent.empty(); }
    const std::string &absent() const { return m_absent; }
    // "a throwaway pair (pg-cluster.sh, fsync on)" or "the servers given".
    const std::string &origin() const { return m_origin; }

    // URLs of a fresh empty schema `buzz_bench_<pid>_<name>` (search_path set in the URL), visible
    // on the standby; nullopt when it cannot be made (says why on stderr).
    std::optional<PgUrls> freshSchema(const std::string &name);
    // Waits until the standby has replayed everything the primary has written (true), or 120 s.
    bool waitForStandby();

private:
    std::string m_absent;
    std::string m_origin;
    PgUrls m_base;
    std::unique_ptr<QTemporaryDir> m_stateDir; // set when this object started the pair
    std::vector<std::string> m_schemas;
};

} // namespace buzz::relay::bench
