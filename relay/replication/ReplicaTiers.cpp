#include "relay/replication/ReplicaTiers.h"

#include "relay/replication/postgres/PgStandbySet.h"
#include "relay/replication/sqlite/ReplicaSet.h"
#include "relay/store/Store.h"
#include "relay/store/StoreVisitor.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcReplica)

namespace buzz::relay::replication {

namespace {
class Attach final : public store::StoreVisitor
{
public:
    Attach(const ReplicationConfig &config, const std::vector<std::string> &standbyUrls)
        : m_config(config)
        , m_standbyUrls(standbyUrls)
    { }

    void visit(store::SqliteStore &store) override
    {
        ReplicationConfig config = m_config;
        std::string error;
        auto replicas = ReplicaSet::attach(store, config, error);
        if (!replicas) {
            attached.error = error;
            qCCritical(lcReplica) << "cannot start the read replicas:" << error.c_str();
            config.replicas = 0;
            replicas = ReplicaSet::attach(store, config, error);
        }
        attached.simulated = replicas.get();
        attached.tier = std::move(replicas);
    }

    void visit(store::PgStore &store) override
    {
        if (m_config.replicas > 0) {
            attached.error = "--replicas simulates SQLite replicas; on PostgreSQL the read replica "
                             "is a real standby: give --read-database-url instead";
            attached.fatal = true;
            qCCritical(lcReplica) << attached.error.c_str();
            return;
        }
        std::string error;
        auto standbys = PgStandbySet::attach(store, m_standbyUrls, m_config, error);
        if (!standbys) {
            attached.error = error;
            qCCritical(lcReplica) << "cannot use the read replica:" << error.c_str();
            standbys = PgStandbySet::attach(store, {}, m_config, error);
        }
        attached.tier = std::move(standbys);
    }

    ReplicaTiers::Attached attached;

private:
    const ReplicationConfig &m_config;
    const std::vector<std::string> &m_standbyUrls;
};
} // namespace

ReplicaTiers::Attached ReplicaTiers::attach(store::Store &store, const ReplicationConfig &config,
                                            const std::vector<std::string> &standbyUrls)
{
    Attach attach(config, standbyUrls);
    store.accept(attach);
    return std::move(attach.attached);
}

} // namespace buzz::relay::replication
