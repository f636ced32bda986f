#include "relay/model/RouteTypes.h"

namespace buzz::relay {

std::string_view toLabel(RouteArm arm)
{
    switch (arm) {
    case RouteArm::Bounded:
        return "bounded";
    case RouteArm::Covered:
        return "covered";
    case RouteArm::CoveredPostVerified:
        return "covered_post_verified";
    case RouteArm::BoundedOrCovered:
        return "bounded_or_covered";
    }
    return "bounded";
}

std::string_view toLabel(RouteReason reason)
{
    switch (reason) {
    case RouteReason::Fresh:
        return "fresh";
    case RouteReason::Covered:
        return "covered";
    case RouteReason::Disabled:
        return "disabled";
    case RouteReason::Uninitialized:
        return "uninitialized";
    case RouteReason::Stale:
        return "stale";
    case RouteReason::ReaderAcquireTimeout:
        return "reader_acquire_timeout";
    case RouteReason::ReaderValidationError:
        return "reader_validation_error";
    case RouteReason::ReaderTokenBehind:
        return "reader_token_behind";
    case RouteReason::ReplicaError:
        return "replica_error";
    case RouteReason::StatementCancelled:
        return "statement_cancelled";
    case RouteReason::MissingRoot:
        return "missing_root";
    case RouteReason::Strong:
        return "strong";
    case RouteReason::ChannelMetadata:
        return "channel_metadata";
    case RouteReason::NotChannelScoped:
        return "not_channel_scoped";
    case RouteReason::BeyondWall:
        return "beyond_wall";
    case RouteReason::ShortPage:
        return "short_page";
    case RouteReason::NotCaughtUp:
        return "not_caught_up";
    }
    return "disabled";
}

std::string_view toLabel(RouteDecisionLabel decision)
{
    switch (decision) {
    case RouteDecisionLabel::Writer:
        return "writer";
    case RouteDecisionLabel::Replica:
        return "replica";
    case RouteDecisionLabel::Rejected:
        return "rejected";
    }
    return "writer";
}

std::string_view toLabel(ReadPath path)
{
    switch (path) {
    case ReadPath::BridgeQuery:
        return "bridge_query";
    case ReadPath::BridgeCount:
        return "bridge_count";
    case ReadPath::BridgeCountFallback:
        return "bridge_count_fallback";
    case ReadPath::ReqHistorical:
        return "req_historical";
    case ReadPath::CountReq:
        return "count_req";
    case ReadPath::CountReqFallback:
        return "count_req_fallback";
    case ReadPath::BridgeThreadAux:
        return "bridge_thread_aux";
    case ReadPath::BridgeSearchHydrate:
        return "bridge_search_hydrate";
    case ReadPath::ReqSearchHydrate:
        return "req_search_hydrate";
    case ReadPath::ProfileSearchHydrate:
        return "profile_search_hydrate";
    }
    return "bridge_query";
}

} // namespace buzz::relay
