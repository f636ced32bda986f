#include "relay/model/IngestResult.h"

namespace buzz::relay {

int IngestResult::httpStatus() const
{
    switch (status) {
    case Status::Stored:
    case Status::Duplicate:
    case Status::RejectedDuplicate:
        return 200;
    case Status::Rejected:
        return 400;
    case Status::Conflict:
        return 409;
    case Status::Forbidden:
        return 403;
    case Status::Internal:
        return 500;
    }
    return 500;
}

} // namespace buzz::relay
