#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace buzz::relay::store {

// The commit-log record of one write transaction, built as text while the transaction runs:
// {"community":…,"committed_at_ms":…,"ops":[…]}. Event inserts, the bulk of all records, are
// appended without building a JSON value first (this runs on the single writer, per event).
class ChangeRecord
{
public:
    explicit ChangeRecord(std::string community)
        : m_community(std::move(community))
    { }

    void add(const nlohmann::json &op);
    void addEvent(const std::string &community, const std::string &json,
                  const std::optional<std::string> &channel, const std::optional<std::string> &dTag,
                  std::int64_t receivedAt, const std::string *threadRoot,
                  const std::string *threadParent, int threadDepth);

    bool empty() const { return m_ops.empty(); }
    std::string text(std::int64_t committedAtMs) const;

private:
    void beginOp();

    std::string m_community;
    std::string m_ops; // comma-separated op objects
};

} // namespace buzz::relay::store
