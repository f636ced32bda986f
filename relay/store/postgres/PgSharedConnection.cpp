#include "relay/store/postgres/PgSharedConnection.h"

namespace buzz::relay::store {

std::shared_ptr<PgSharedConnection> PgSharedConnection::open(const std::string &url,
                                                             std::string &error)
{
    auto connection = PgConnection::open(url, error);
    if (!connection)
        return nullptr;
    return std::shared_ptr<PgSharedConnection>(new PgSharedConnection(std::move(connection)));
}

PgResult PgSharedConnection::run(const std::string &sql, const PgParams &params)
{
    std::lock_guard lock(m_mutex);
    PgResult result = m_connection->run(sql, params);
    if (result.ok() || m_connection->healthy() || !m_connection->reconnect())
        return result;
    return m_connection->run(sql, params);
}

} // namespace buzz::relay::store
