#include "SoakFaults.h"

#include <QDateTime>

namespace buzz::soak {

SoakFaults::SoakFaults(relay::replication::ReplicaTier &replicas, SoakLedger &ledger,
                       std::uint32_t seed)
    : m_replicas(replicas)
    , m_ledger(ledger)
    , m_random(seed)
{
    QObject::connect(&m_timer, &QTimer::timeout, [this] {
        injectOne();
        m_timer.setInterval(std::uniform_int_distribution<int>(150, 700)(m_random));
    });
}

void SoakFaults::start()
{
    m_ledger.budgetChanges.emplace_back(QDateTime::currentMSecsSinceEpoch(), m_replicas.budgetMs());
    m_timer.start(300);
}

void SoakFaults::stop()
{
    m_timer.stop();
    for (int i = 0; i < m_replicas.size(); ++i)
        m_replicas.replicaAt(i).setPaused(false);
}

void SoakFaults::injectOne()
{
    if (m_replicas.size() == 0)
        return;
    auto &replica = m_replicas.replicaAt(
        std::uniform_int_distribution<int>(0, m_replicas.size() - 1)(m_random));
    switch (std::uniform_int_distribution<int>(0, 3)(m_random)) {
    case 0:
        replica.setPaused(!replica.paused());
        break;
    case 1:
    case 2:
        replica.setLagMs(std::uniform_int_distribution<int>(0, 3000)(m_random));
        break;
    case 3: {
        static constexpr std::int64_t budgets[] = {0, 250, 1000, 5000, 30000};
        const std::int64_t budget = budgets[std::uniform_int_distribution<int>(0, 4)(m_random)];
        m_replicas.setBudgetMs(budget);
        m_ledger.budgetChanges.emplace_back(QDateTime::currentMSecsSinceEpoch(), budget);
        break;
    }
    }
    ++m_ledger.faultsInjected;
}

} // namespace buzz::soak
