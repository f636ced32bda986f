#include "PgTestCluster.h"

#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgStore.h"

#include <QFile>
#include <QString>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <unistd.h>

namespace buzz::relay::test {

namespace {
[[noreturn]] void abortRun(const std::string &why)
{
    std::fprintf(stderr, "PostgreSQL test cluster unusable: %s\n", why.c_str());
    std::fflush(stderr);
    std::abort();
}

std::unique_ptr<store::PgConnection> connectOrAbort(const std::string &url)
{
    std::string error;
    auto connection = store::PgConnection::open(url, error);
    if (!connection)
        abortRun(error);
    return connection;
}

std::string withSchema(const std::string &url, const std::string &schema)
{
    // libpq URI parameter: options=-csearch_path=<schema>, '=' percent-encoded.
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D"
        + schema;
}
} // namespace

bool PgTestCluster::selected()
{
    const char *store = std::getenv("BUZZ_TEST_STORE");
    return store && std::string(store) == "postgres";
}

std::optional<PgUrls> PgTestCluster::cluster(std::string *why)
{
    const char *path = std::getenv("BUZZ_TEST_PG_CLUSTER");
    const auto fail = [&](std::string reason) -> std::optional<PgUrls> {
        if (why)
            *why = std::move(reason);
        return std::nullopt;
    };
    if (!path || !*path)
        return fail("BUZZ_TEST_PG_CLUSTER is not set (run the PostgreSQL suites through ctest)");
    QFile file(QString::fromLocal8Bit(path));
    if (!file.open(QIODevice::ReadOnly))
        return fail(std::string("no cluster file at ") + path + " (pg_cluster_start did not run)");
    PgUrls urls;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        const auto equals = line.indexOf(QLatin1Char('='));
        if (equals < 0)
            continue;
        const QString key = line.left(equals);
        QString value = line.mid(equals + 1);
        if (value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
            value = value.mid(1, value.size() - 2);
        if (key == QLatin1String("BUZZ_PG_ABSENT"))
            return fail(value.toStdString());
        if (key == QLatin1String("BUZZ_PG_PRIMARY_URL"))
            urls.writer = value.toStdString();
        if (key == QLatin1String("BUZZ_PG_STANDBY_URL"))
            urls.standby = value.toStdString();
    }
    if (urls.writer.empty() || urls.standby.empty())
        return fail(std::string("incomplete cluster file ") + path);
    return urls;
}

std::string PgTestCluster::schemaName()
{
    return "buzz_test_" + std::to_string(::getpid());
}

std::optional<PgUrls> PgTestCluster::freshStore()
{
    if (!selected())
        return std::nullopt;
    std::string why;
    const auto base = cluster(&why);
    if (!base)
        abortRun(why);
    const std::string schema = schemaName();
    auto primary = connectOrAbort(base->writer);
    auto standby = connectOrAbort(base->standby);
    // Whatever an earlier test left (a paused replay, an apply delay) is undone first, or the
    // schema would never reach the standby.
    if (!standby->execOk("SELECT pg_wal_replay_resume() WHERE pg_is_wal_replay_paused()")
        || !standby->execOk("ALTER SYSTEM RESET recovery_min_apply_delay")
        || !standby->execOk("SELECT pg_reload_conf()"))
        abortRun("cannot resume the standby: " + standby->lastError());
    static bool created = false;
    const bool tables = created
        && primary
                ->run("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'events'",
                      store::PgParams().text(schema))
                .rows()
            > 0;
    // Emptying is much cheaper than a new schema (a dozen month partitions, each indexed).
    const std::string reset = tables
        ? "TRUNCATE " + schema + ".events, " + schema + ".event_tags, " + schema
            + ".thread_metadata, " + schema + ".channels, " + schema + ".channel_members, " + schema
            + ".reactions, " + schema + ".retired_channels"
        : "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema;
    if (!primary->execOk(reset))
        abortRun("cannot prepare schema " + schema + ": " + primary->lastError());
    created = true;
    store::PgResult lsn = primary->exec("SELECT pg_current_wal_lsn()");
    if (!lsn.ok())
        abortRun(primary->lastError());
    const std::int64_t target = store::PgStore::parseLsn(lsn.text(0, 0));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        store::PgResult replayed = standby->exec("SELECT pg_last_wal_replay_lsn()");
        if (replayed.ok() && store::PgStore::parseLsn(replayed.text(0, 0)) >= target)
            break;
        if (std::chrono::steady_clock::now() > deadline)
            abortRun("the standby did not replay the new schema within 30 s");
        // Replay is another process: there is nothing to wait on but its position.
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return PgUrls {withSchema(base->writer, schema), withSchema(base->standby, schema)};
}

} // namespace buzz::relay::test
