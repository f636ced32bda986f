#include "relay/store/sqlite/ChangeRecord.h"

#include "net/nostr/CanonicalJson.h"

namespace buzz::relay::store {

namespace {
void appendOptional(std::string &out, const std::optional<std::string> &value)
{
    if (value)
        nostr::appendJsonString(out, *value);
    else
        out += "null";
}
} // namespace

void ChangeRecord::beginOp()
{
    if (!m_ops.empty())
        m_ops.push_back(',');
}

void ChangeRecord::add(const nlohmann::json &op)
{
    beginOp();
    m_ops += op.dump();
}

void ChangeRecord::addEvent(const std::string &community, const std::string &json,
                            const std::optional<std::string> &channel,
                            const std::optional<std::string> &dTag, std::int64_t receivedAt,
                            const std::string *threadRoot, const std::string *threadParent,
                            int threadDepth)
{
    beginOp();
    m_ops.reserve(m_ops.size() + json.size() + json.size() / 8 + 160);
    m_ops += "{\"op\":\"event\",\"community\":";
    nostr::appendJsonString(m_ops, community);
    m_ops += ",\"json\":";
    nostr::appendJsonString(m_ops, json);
    m_ops += ",\"channel\":";
    appendOptional(m_ops, channel);
    m_ops += ",\"d_tag\":";
    appendOptional(m_ops, dTag);
    m_ops += ",\"received_at\":";
    m_ops += std::to_string(receivedAt);
    if (threadRoot && threadParent) {
        m_ops += ",\"thread\":{\"root\":";
        nostr::appendJsonString(m_ops, *threadRoot);
        m_ops += ",\"parent\":";
        nostr::appendJsonString(m_ops, *threadParent);
        m_ops += ",\"depth\":";
        m_ops += std::to_string(threadDepth);
        m_ops.push_back('}');
    }
    m_ops.push_back('}');
}

std::string ChangeRecord::text(std::int64_t committedAtMs) const
{
    std::string out;
    out.reserve(m_ops.size() + m_community.size() + 64);
    out += "{\"community\":";
    nostr::appendJsonString(out, m_community);
    out += ",\"committed_at_ms\":";
    out += std::to_string(committedAtMs);
    out += ",\"ops\":[";
    out += m_ops;
    out += "]}";
    return out;
}

} // namespace buzz::relay::store
