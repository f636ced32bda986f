#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace buzz::relay {
class RelayEngine;
class RelayHost;
class RelayServer;
} // namespace buzz::relay

namespace buzz::desktop {

// The relay library running inside the app (first run needs no server): a RelayHost with its
// SQLite data under `dataDir`, listening on 127.0.0.1 with a free port. Tests use it as their
// per-test relay too.
class EmbeddedRelay : public QObject
{
    Q_OBJECT
public:
    explicit EmbeddedRelay(QObject *parent = nullptr);
    ~EmbeddedRelay() override;

    // `dataDir` empty = in memory. The relay key is kept in `<dataDir>/relay.key` so relay-signed
    // events stay verifiable across restarts.
    // `replicas` / `readBudgetMs`: simulated read replicas and their routing budget (tests, QA);
    // the app's own relay has none, and every read is served by the writer.
    bool start(const QString &dataDir, int replicas = 0, qint64 readBudgetMs = 0);
    // The URL clients reach the relay by, when that is not its own address (a test proxy in
    // front of it): NIP-42 and NIP-98 must name it. Set before start().
    void setAdvertisedUrl(const QString &url) { m_advertisedUrl = url; }
    void stop();

    QString url() const; // ws://127.0.0.1:<port>
    QString httpUrl() const;
    quint16 port() const;
    QString errorString() const { return m_error; }
    relay::RelayEngine *engine() const;
    relay::RelayServer *server() const;

private:
    std::unique_ptr<relay::RelayHost> m_host;
    QString m_error;
    QString m_advertisedUrl;
};

} // namespace buzz::desktop
