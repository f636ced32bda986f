#include "relay/store/Store.h"

#include "relay/store/postgres/PgStore.h"
#include "relay/store/sqlite/SearchIndexer.h"
#include "relay/store/sqlite/SqliteStore.h"

namespace buzz::relay::store {

std::unique_ptr<Store> Store::open(const Options &options, std::string &error)
{
    if (!options.databaseUrl.empty())
        return PgStore::open(options.databaseUrl, options.nowSec, error);
    // SQLite keeps its full-text index (FTS5) in step through a store extension; PostgreSQL's
    // is a generated column of events.
    auto sqlite = SqliteStore::open(options.dataDir, error, {std::make_shared<SearchIndexer>()});
    if (sqlite)
        sqlite->setCommitLogRetention(options.commitLogRetention);
    return sqlite;
}

} // namespace buzz::relay::store
