#pragma once

// One soak client: its own identity, RelayConnection and the real canvas::CanvasService, editing
// random channels in a loop over real HTTP. Its clock is skewed (±900 s); some of its edits start
// from a display read (possibly a lagging replica), some from a strong one; now and then it
// soft-deletes its own latest revision or sends a raw write dated before the head. Half of its
// edits go to the newest canvases (the run keeps adding channels), where a client whose clock is
// far behind still gets to make first saves — commits whose created_at is minutes older than rows
// committed before them.

#include "SoakLedger.h"

#include "canvas/CanvasService.h"
#include "net/client/RelayConnection.h"

#include <QObject>
#include <QStringList>

#include <qcoro/qcorotask.h>

#include <atomic>
#include <memory>
#include <random>

namespace buzz::soak {

class SoakClient : public QObject
{
    Q_OBJECT
public:
    SoakClient(int index, const QUrl &relayUrl, const QStringList &channels, qint64 clockSkewSecs,
               SoakLedger &ledger, std::uint32_t seed, QObject *parent = nullptr);
    ~SoakClient() override;

    // Runs until stop(); emits finished() when the loop has returned.
    QCoro::Task<> run();
    void stop() { m_stopping = true; }
    bool isFinished() const { return m_finished; }
    // Pages one channel's history through routed (display) reads and records what it saw.
    QCoro::Task<> pageChannel(QString channel);

    canvas::CanvasService &service() { return *m_service; }

signals:
    void finished();

private:
    QCoro::Task<> editOnce();
    QCoro::Task<> deleteOwn(canvas::CanvasRevision revision);
    QCoro::Task<> writeOlderThanHead(QString channel);

    int m_index;
    const QStringList &m_channels; // shared, grows during the run
    qint64 m_skew;
    SoakLedger &m_ledger;
    std::mt19937 m_random;
    std::unique_ptr<client::RelayConnection> m_connection;
    std::unique_ptr<canvas::CanvasService> m_service;
    std::shared_ptr<const nostr::SecretKey> m_key;
    std::atomic<bool> m_stopping {false};
    bool m_finished = false;
    int m_edits = 0;
};

} // namespace buzz::soak
