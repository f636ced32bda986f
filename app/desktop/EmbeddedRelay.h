#pragma once

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace buzz::relay {
class RelayEngine;
class RelayServer;
} // namespace buzz::relay

namespace buzz::desktop {

// The relay library running inside the app (first run needs no server): a RelayEngine with its
// SQLite data under `dataDir` and a RelayServer on 127.0.0.1 with a free port. Tests use it as
// their per-test relay too.
class EmbeddedRelay : public QObject
{
    Q_OBJECT
public:
    explicit EmbeddedRelay(QObject *parent = nullptr);
    ~EmbeddedRelay() override;

    // `dataDir` empty = in memory. The relay key is kept in `<dataDir>/relay.key` so relay-signed
    // events stay verifiable across restarts.
    // `replicas` / `readBudgetMs`: simulated read replicas and their routing budget (tests, QA).
    bool start(const QString &dataDir, int replicas = 0,
               std::optional<qint64> readBudgetMs = std::nullopt);
    void stop();

    QString url() const; // ws://127.0.0.1:<port>
    QString httpUrl() const;
    quint16 port() const;
    QString errorString() const { return m_error; }
    relay::RelayEngine *engine() const { return m_engine.get(); }
    relay::RelayServer *server() const { return m_server.get(); }

private:
    std::unique_ptr<relay::RelayEngine> m_engine;
    std::unique_ptr<relay::RelayServer> m_server;
    QString m_error;
};

} // namespace buzz::desktop
