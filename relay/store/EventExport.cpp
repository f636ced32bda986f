#include "relay/store/EventExport.h"

#include "relay/store/ReadConnection.h"

namespace buzz::relay::store {

bool EventExport::forEach(const ConnectionLease &lease, const std::string &community,
                          const Sink &sink, std::string &error)
{
    if (!lease) {
        error = "no database connection";
        return false;
    }
    ReadConnection::ExportCursor cursor;
    for (;;) {
        const int rows = lease.connection().exportPage(community, cursor, kPageRows, sink, error);
        if (rows < 0)
            return false;
        if (rows < kPageRows)
            return true;
    }
}

} // namespace buzz::relay::store
