#include "relay/replication/ReplicaFaults.h"

#include <algorithm>

namespace buzz::relay::replication {

std::optional<FaultKind> faultKindFromName(std::string_view name)
{
    if (name == "error")
        return FaultKind::Error;
    if (name == "timeout")
        return FaultKind::Timeout;
    if (name == "busy")
        return FaultKind::Busy;
    return std::nullopt;
}

std::string_view faultKindName(FaultKind kind)
{
    switch (kind) {
    case FaultKind::Error:
        return "error";
    case FaultKind::Timeout:
        return "timeout";
    case FaultKind::Busy:
        return "busy";
    }
    return "error";
}

int &ReplicaFaults::slot(FaultKind kind)
{
    switch (kind) {
    case FaultKind::Error:
        return m_error;
    case FaultKind::Timeout:
        return m_timeout;
    case FaultKind::Busy:
        return m_busy;
    }
    return m_error;
}

void ReplicaFaults::add(FaultKind kind, int count)
{
    std::lock_guard lock(m_mutex);
    slot(kind) = std::max(0, slot(kind) + count);
}

bool ReplicaFaults::take(FaultKind kind)
{
    std::lock_guard lock(m_mutex);
    int &remaining = slot(kind);
    if (remaining <= 0)
        return false;
    --remaining;
    return true;
}

int ReplicaFaults::pending(FaultKind kind) const
{
    std::lock_guard lock(m_mutex);
    return const_cast<ReplicaFaults *>(this)->slot(kind);
}

void ReplicaFaults::clear()
{
    std::lock_guard lock(m_mutex);
    m_error = m_timeout = m_busy = 0;
}

} // namespace buzz::relay::replication
