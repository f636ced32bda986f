#include "relay/model/OutboundBudget.h"

namespace buzz::relay {

OutboundBudget::OutboundBudget(std::size_t limitBytes)
    : m_limit(limitBytes)
{ }

OutboundBudget::Hold::Hold(std::shared_ptr<OutboundBudget> budget)
    : m_budget(std::move(budget))
{ }

OutboundBudget::Hold::~Hold()
{
    if (m_budget)
        m_budget->add(-std::int64_t(bytes()));
}

bool OutboundBudget::Hold::take(std::size_t bytes)
{
    if (!m_budget)
        return true;
    const std::size_t held = m_bytes.load(std::memory_order_relaxed) + bytes;
    if (held > kSmallAnswerBytes
        && m_budget->used() + std::int64_t(bytes) > std::int64_t(m_budget->limit()))
        return false;
    m_budget->add(std::int64_t(bytes));
    m_bytes.fetch_add(bytes, std::memory_order_relaxed);
    return true;
}

void OutboundBudget::Hold::give(std::size_t bytes)
{
    if (!m_budget)
        return;
    m_budget->add(-std::int64_t(bytes));
    m_bytes.fetch_sub(bytes, std::memory_order_relaxed);
}

} // namespace buzz::relay
