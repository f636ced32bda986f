#pragma once

#include "net/client/RequestLog.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <deque>

namespace buzz::client {

// The request log as JSON Lines, for QA: what "Save log…" writes and what the app keeps in its
// profile across restarts. A file starts with a "session" line (app version, relay URL, identity,
// time), then one "request" line per finished request or WebSocket frame, the fields of
// RequestLogEntry::toJson (README.md "Diagnostics (QA)").
//
// A journal appends every finished entry of `log` to `path` as it arrives. When the next line
// would take the file past `maxBytes` it rotates: path → path.1 → path.2 … up to `rotations`
// old files, the oldest dropped, so the journal never takes more than (rotations + 1) × maxBytes.
// Every file starts with the session line, so each one can be read on its own.
class RequestJournal : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kDefaultMaxBytes = 1024 * 1024;
    static constexpr int kDefaultRotations = 3;

    struct Session
    {
        QString appVersion;
        QString relayUrl;
        QString npub;
        QDateTime time; // UTC
        QJsonObject toJson() const;
    };

    RequestJournal(RequestLog *log, const QString &path, qint64 maxBytes = kDefaultMaxBytes,
                   int rotations = kDefaultRotations, QObject *parent = nullptr);

    // Opens (appends to) the file and writes the session line. False with errorString() when the
    // file cannot be written; the journal then stays closed and the app runs on.
    bool open(const Session &session);
    QString path() const { return m_path; }
    QString errorString() const { return m_error; }
    // The journal's files that exist, oldest first (path.N … path.1, path).
    QStringList files() const;

    static QByteArray sessionLine(const Session &session);
    static QByteArray entryLine(const RequestLogEntry &entry);
    // Writes one self-contained JSON Lines file: the session line, then every entry.
    static bool save(const QString &path, const Session &session,
                     const std::deque<RequestLogEntry> &entries, QString *error = nullptr);

private:
    void append(const RequestLogEntry &entry);
    bool rotate();
    QString rotatedPath(int generation) const;

    QString m_path;
    qint64 m_maxBytes;
    int m_rotations;
    Session m_session;
    QFile m_file;
    QString m_error;
};

} // namespace buzz::client
