#pragma once

#include "canvas/CanvasRevision.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <chrono>
#include <optional>

namespace buzz::canvas {

class CanvasSession;
class LastSeenRevisions;

// Changes as they happen, for one open canvas (its CanvasSession): a revision by someone else
// that arrives while the user reads is announced (announced(): who, and what it changed against
// the text shown before) and its lines are highlighted for highlightFor; opening a canvas whose
// head is not the revision the user last saw (LastSeenRevisions) offers what changed since
// (changedSinceLastVisit). The revision shown while reading is recorded as seen. No widgets: the
// canvas pane shows what this says.
class LiveChangeTracker : public QObject
{
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kDefaultHighlightFor {30000};

    struct Change
    {
        std::optional<CanvasRevision> from; // nullopt: there was no canvas
        CanvasRevision to;
        QStringList addedLines; // lines of `to` that `from` does not have, in order
        int removedLines = 0;
    };
    static Change between(const std::optional<CanvasRevision> &from, const CanvasRevision &to);
    // A Markdown line as the rendered canvas shows its text ("## **Plan**" → "Plan"), to find the
    // rendered paragraph a changed line became.
    static QString plainLine(const QString &markdownLine);

    // `lastSeen` (not owned) may be nullptr; `selfPubkey`: revisions by the user are not news.
    LiveChangeTracker(CanvasSession *session, LastSeenRevisions *lastSeen, QString selfPubkey,
                      QObject *parent = nullptr);

    void setHighlightFor(std::chrono::milliseconds duration) { m_highlightFor = duration; }

    // The change on offer ("Bob changed this canvas just now · Show changes").
    const std::optional<Change> &announced() const { return m_announced; }
    // The revision last seen before this visit, when the head is another one.
    const std::optional<QString> &lastVisitRevision() const { return m_lastVisit; }
    // Highlights what changed from `from` (the last visit's revision, once read) to the head.
    void showSince(const std::optional<CanvasRevision> &from);
    void dismiss(); // the notice was closed: no offer, no highlight

    bool isHighlighting() const { return m_highlightTimer.isActive(); }
    QStringList highlightedLines() const
    {
        return isHighlighting() ? m_highlighted : QStringList();
    }

signals:
    void announcedChanged();
    void changedSinceLastVisit(const QString &lastSeenRevision);
    void highlightChanged();

private:
    void onHeadChanged();
    void markSeen();
    void highlight(const QStringList &lines);

    QPointer<CanvasSession> m_session;
    LastSeenRevisions *m_lastSeen;
    QString m_self;
    bool m_baseline = false; // the first head of this visit was taken
    std::optional<CanvasRevision> m_shown; // the head the user has in front of them
    std::optional<Change> m_announced;
    std::optional<QString> m_lastVisit;
    std::chrono::milliseconds m_highlightFor = kDefaultHighlightFor;
    QStringList m_highlighted;
    QTimer m_highlightTimer;
};

} // namespace buzz::canvas
