#include "relay/routing/WriterOnlyRouter.h"

#include "relay/store/Store.h"

namespace buzz::relay::routing {

ReadLease WriterOnlyRouter::route(const ReadRequest &)
{
    return ReadLease(m_database.leaseWriterConnection(), "writer", "disabled");
}

} // namespace buzz::relay::routing
