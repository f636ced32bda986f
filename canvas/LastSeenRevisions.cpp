#include "canvas/LastSeenRevisions.h"

#include <QCryptographicHash>
#include <QSettings>

namespace buzz::canvas {

LastSeenRevisions::LastSeenRevisions(QSettings *settings, const QString &scope)
    : m_settings(settings)
    // A relay URL is no settings key (slashes make groups): its hash is.
    , m_scope(QString::fromLatin1(
          QCryptographicHash::hash(scope.toUtf8(), QCryptographicHash::Sha256).toHex().left(16)))
{ }

QString LastSeenRevisions::key(const QString &channel) const
{
    return QStringLiteral("canvas/lastSeen/%1/%2").arg(m_scope, channel.toLower());
}

QString LastSeenRevisions::lastSeen(const QString &channel) const
{
    return m_settings ? m_settings->value(key(channel)).toString() : QString();
}

void LastSeenRevisions::markSeen(const QString &channel, const QString &revisionId)
{
    if (!m_settings || revisionId.isEmpty() || lastSeen(channel) == revisionId)
        return;
    m_settings->setValue(key(channel), revisionId.toLower());
}

} // namespace buzz::canvas
