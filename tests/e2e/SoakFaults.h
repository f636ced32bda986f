#pragma once

// Replica faults for the soak: every few hundred milliseconds one random change — pause or resume
// a replica, change its lag (0–3 s), or change the routing budget — through the replication
// layer's own controls (the same ones the mock's /admin API drives).

#include "SoakLedger.h"

#include "relay/replication/ReplicaTier.h"

#include <QTimer>

#include <random>

namespace buzz::soak {

class SoakFaults
{
public:
    SoakFaults(relay::replication::ReplicaTier &replicas, SoakLedger &ledger, std::uint32_t seed);

    void start();
    // Resumes every replica (lag kept) so the final routed reads still see lag but no pause.
    void stop();

private:
    void injectOne();

    relay::replication::ReplicaTier &m_replicas;
    SoakLedger &m_ledger;
    std::mt19937 m_random;
    QTimer m_timer;
};

} // namespace buzz::soak
