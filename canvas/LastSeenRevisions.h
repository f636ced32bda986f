#pragma once

#include <QString>

class QSettings;

namespace buzz::canvas {

// The revision of each canvas the user last saw, kept in the profile's settings so that opening a
// canvas that changed since can offer "what changed since your last visit". Keyed by relay (the
// `scope`: the same key drafts use, stable for the embedded relay) and channel, under
// `canvas/lastSeen/<scope hash>/<channel>`.
class LastSeenRevisions
{
public:
    // `settings` (not owned) outlives this; nullptr keeps nothing (tests without a profile).
    LastSeenRevisions(QSettings *settings, const QString &scope);

    QString lastSeen(const QString &channel) const; // empty: never seen
    void markSeen(const QString &channel, const QString &revisionId);

private:
    QString key(const QString &channel) const;

    QSettings *m_settings;
    QString m_scope;
};

} // namespace buzz::canvas
