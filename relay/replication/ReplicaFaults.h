#pragma once

// Faults QA injects into one replica (POST /admin/faults): each kind fails that many of the
// replica's next reads, then the replica behaves again. Thread-safe.

#include <mutex>
#include <optional>
#include <string_view>

namespace buzz::relay::replication {

enum class FaultKind { Error, Timeout, Busy };

std::optional<FaultKind> faultKindFromName(std::string_view name);
std::string_view faultKindName(FaultKind kind);

class ReplicaFaults
{
public:
    void add(FaultKind kind, int count);
    // Consumes one pending fault of that kind; true when the read must fail that way.
    bool take(FaultKind kind);
    int pending(FaultKind kind) const;
    void clear();

private:
    int &slot(FaultKind kind);

    mutable std::mutex m_mutex;
    int m_error = 0;
    int m_timeout = 0;
    int m_busy = 0;
};

} // namespace buzz::relay::replication
