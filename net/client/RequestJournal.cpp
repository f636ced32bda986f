#include "net/client/RequestJournal.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace buzz::client {

QJsonObject RequestJournal::Session::toJson() const
{
    return QJsonObject {
        {QStringLiteral("type"), QStringLiteral("session")},
        {QStringLiteral("app_version"), appVersion},
        {QStringLiteral("relay_url"), relayUrl},
        {QStringLiteral("npub"), npub},
        {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
    };
}

RequestJournal::RequestJournal(RequestLog *log, const QString &path, qint64 maxBytes, int rotations,
                               QObject *parent)
    : QObject(parent)
    , m_path(path)
    , m_maxBytes(maxBytes > 0 ? maxBytes : kDefaultMaxBytes)
    , m_rotations(rotations < 0 ? 0 : rotations)
    , m_file(path)
{
    connect(log, &RequestLog::entryAdded, this, &RequestJournal::append);
}

QByteArray RequestJournal::sessionLine(const Session &session)
{
    return QJsonDocument(session.toJson()).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray RequestJournal::entryLine(const RequestLogEntry &entry)
{
    QJsonObject object = entry.toJson();
    object.insert(QStringLiteral("type"), QStringLiteral("request"));
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

bool RequestJournal::save(const QString &path, const Session &session,
                          const std::deque<RequestLogEntry> &entries, QString *error)
{
    QSaveFile file(path);
    bool ok = file.open(QIODevice::WriteOnly);
    ok = ok && file.write(sessionLine(session)) >= 0;
    for (const RequestLogEntry &entry : entries)
        ok = ok && file.write(entryLine(entry)) >= 0;
    ok = ok && file.commit();
    if (!ok && error)
        *error = file.errorString();
    return ok;
}

bool RequestJournal::open(const Session &session)
{
    m_session = session;
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath())
        || !m_file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        m_error = m_file.errorString();
        return false;
    }
    const QByteArray line = sessionLine(m_session);
    if (m_file.size() > 0 && m_file.size() + line.size() > m_maxBytes && !rotate())
        return false;
    m_file.write(line);
    m_file.flush();
    return true;
}

QString RequestJournal::rotatedPath(int generation) const
{
    return m_path + QLatin1Char('.') + QString::number(generation);
}

QStringList RequestJournal::files() const
{
    QStringList out;
    for (int generation = m_rotations; generation >= 1; --generation) {
        if (QFileInfo::exists(rotatedPath(generation)))
            out << rotatedPath(generation);
    }
    if (QFileInfo::exists(m_path))
        out << m_path;
    return out;
}

bool RequestJournal::rotate()
{
    m_file.close();
    if (m_rotations == 0) {
        QFile::remove(m_path);
    } else {
        QFile::remove(rotatedPath(m_rotations));
        for (int generation = m_rotations - 1; generation >= 1; --generation)
            QFile::rename(rotatedPath(generation), rotatedPath(generation + 1));
        QFile::rename(m_path, rotatedPath(1));
    }
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        m_error = m_file.errorString();
        return false;
    }
    return true;
}

void RequestJournal::append(const RequestLogEntry &entry)
{
    if (!m_file.isOpen())
        return;
    const QByteArray line = entryLine(entry);
    if (m_file.size() + line.size() > m_maxBytes) {
        if (!rotate())
            return;
        m_file.write(sessionLine(m_session));
    }
    m_file.write(line);
    // Flushed per line: after a crash the journal holds everything up to it.
    m_file.flush();
}

} // namespace buzz::client
