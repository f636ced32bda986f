#include "BenchPostgres.h"

#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgStore.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <thread>

#include <unistd.h>

namespace buzz::relay::bench {

namespace {
const QString kScript = QStringLiteral(BUZZ_SOURCE_DIR "/tests/support/pg-cluster.sh");

std::optional<std::string> option(const QStringList &arguments, const QString &name)
{
    const auto at = arguments.indexOf(name);
    if (at < 0 || at + 1 >= arguments.size())
        return std::nullopt;
    return arguments.at(at + 1).toStdString();
}

// libpq URI parameter: options=-csearch_path=<schema>, '=' percent-encoded.
std::string withSchema(const std::string &url, const std::string &schema)
{
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D"
        + schema;
}

bool runScript(const QStringList &arguments, QByteArray *output = nullptr)
{
    QProcess script;
    script.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    script.start(QStringLiteral("bash"), QStringList {kScript} + arguments);
    if (!script.waitForFinished(180000))
        return false;
    if (output)
        *output = script.readAllStandardOutput();
    return script.exitStatus() == QProcess::NormalExit && script.exitCode() == 0;
}
} // namespace

BenchPostgres::BenchPostgres(const QStringList &arguments)
{
    if (auto url = option(arguments, QStringLiteral("--database-url"))) {
        m_base.writer = *url;
        m_base.standby = option(arguments, QStringLiteral("--read-database-url")).value_or("");
        m_origin = "the servers given (--database-url/--read-database-url)";
        return;
    }
    m_stateDir = std::make_unique<QTemporaryDir>();
    QByteArray output;
    if (!m_stateDir->isValid()
        || !runScript({QStringLiteral("start"), m_stateDir->path(), QStringLiteral("--fsync"),
                       QStringLiteral("on")},
                      &output)) {
        m_absent = "tests/support/pg-cluster.sh could not start a PostgreSQL pair";
        m_stateDir.reset();
        return;
    }
    for (const QByteArray &line : output.split('\n')) {
        const auto equals = line.indexOf('=');
        if (equals < 0)
            continue;
        const QByteArray key = line.left(equals);
        QByteArray value = line.mid(equals + 1);
        if (value.startsWith('"') && value.endsWith('"'))
            value = value.mid(1, value.size() - 2);
        if (key == "BUZZ_PG_ABSENT")
            m_absent = value.toStdString();
        else if (key == "BUZZ_PG_PRIMARY_URL")
            m_base.writer = value.toStdString();
        else if (key == "BUZZ_PG_STANDBY_URL")
            m_base.standby = value.toStdString();
    }
    if (m_absent.empty() && m_base.writer.empty())
        m_absent = "pg-cluster.sh printed no primary URL";
    m_origin = "a throwaway primary + hot standby (tests/support/pg-cluster.sh, fsync on)";
}

BenchPostgres::~BenchPostgres()
{
    if (!m_schemas.empty() && !m_base.writer.empty() && !m_stateDir) {
        // Servers of the caller's: take away only what this run made.
        std::string error;
        if (auto primary = store::PgConnection::open(m_base.writer, error)) {
            for (const std::string &schema : m_schemas)
                primary->execOk("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
    if (m_stateDir)
        runScript({QStringLiteral("stop"), m_stateDir->path()});
}

bool BenchPostgres::waitForStandby()
{
    if (m_base.standby.empty())
        return true;
    std::string error;
    auto primary = store::PgConnection::open(m_base.writer, error);
    auto standby = primary ? store::PgConnection::open(m_base.standby, error) : nullptr;
    if (!standby) {
        std::fprintf(stderr, "relay_bench: %s\n", error.c_str());
        return false;
    }
    store::PgResult lsn = primary->exec("SELECT pg_current_wal_lsn()");
    if (!lsn.ok())
        return false;
    const std::int64_t target = store::PgStore::parseLsn(lsn.text(0, 0));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline) {
        store::PgResult replayed = standby->exec("SELECT pg_last_wal_replay_lsn()");
        if (replayed.ok() && store::PgStore::parseLsn(replayed.text(0, 0)) >= target)
            return true;
        // Replay is another process: there is nothing to wait on but its position.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::fprintf(stderr, "relay_bench: the standby did not catch up within 120 s\n");
    return false;
}

std::optional<PgUrls> BenchPostgres::freshSchema(const std::string &name)
{
    if (!available())
        return std::nullopt;
    const std::string schema = "buzz_bench_" + std::to_string(::getpid()) + "_" + name;
    std::string error;
    auto primary = store::PgConnection::open(m_base.writer, error);
    if (!primary
        || !primary->execOk("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA "
                            + schema)) {
        std::fprintf(stderr, "relay_bench: cannot make schema %s: %s\n", schema.c_str(),
                     primary ? primary->lastError().c_str() : error.c_str());
        return std::nullopt;
    }
    m_schemas.push_back(schema);
    if (!waitForStandby())
        return std::nullopt;
    return PgUrls {withSchema(m_base.writer, schema),
                   m_base.standby.empty() ? std::string() : withSchema(m_base.standby, schema)};
}

} // namespace buzz::relay::bench
