#include "canvas/LiveChangeTracker.h"

#include "canvas/CanvasSession.h"
#include "canvas/LastSeenRevisions.h"
#include "canvas/Merge3.h"

#include <QRegularExpression>

#include <utility>

namespace buzz::canvas {

LiveChangeTracker::Change LiveChangeTracker::between(const std::optional<CanvasRevision> &from,
                                                     const CanvasRevision &to)
{
    Change change {from, to, {}, 0};
    for (const DiffLine &line : Merge3::lineDiff(from ? from->content : QString(), to.content)) {
        if (line.op == DiffLine::Op::Added)
            change.addedLines.append(line.text);
        else if (line.op == DiffLine::Op::Removed)
            ++change.removedLines;
    }
    return change;
}

QString LiveChangeTracker::plainLine(const QString &markdownLine)
{
    // Block markers at the start (headings, quotes, list items, task boxes), then inline emphasis,
    // code and link syntax: what is left is the text the renderer lays out.
    static const QRegularExpression blockMarkers(
        QStringLiteral(R"(^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)?)"));
    static const QRegularExpression link(QStringLiteral(R"(!?\[([^\]]*)\]\([^)]*\))"));
    static const QRegularExpression emphasis(QStringLiteral(R"([*_`~]+)"));
    QString text = markdownLine;
    text.remove(blockMarkers);
    text.replace(link, QStringLiteral("\\1"));
    text.remove(emphasis);
    return text.simplified();
}

LiveChangeTracker::LiveChangeTracker(CanvasSession *session, LastSeenRevisions *lastSeen,
                                     QString selfPubkey, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_lastSeen(lastSeen)
    , m_self(std::move(selfPubkey).toLower())
{
    m_highlightTimer.setSingleShot(true);
    connect(&m_highlightTimer, &QTimer::timeout, this, [this] {
        m_highlighted.clear();
        emit highlightChanged();
    });
    connect(session, &CanvasSession::headChanged, this, &LiveChangeTracker::onHeadChanged);
    connect(session, &CanvasSession::loadFinished, this, &LiveChangeTracker::onHeadChanged);
    // Leaving the editor shows the head: from then on it has been seen.
    connect(session, &CanvasSession::editingChanged, this, [this](bool editing) {
        if (!editing) {
            m_shown = m_session->head();
            markSeen();
        }
    });
    onHeadChanged();
}

void LiveChangeTracker::markSeen()
{
    if (m_lastSeen && m_session && m_shown && !m_session->isEditing())
        m_lastSeen->markSeen(m_session->channel(), m_shown->eventId);
}

void LiveChangeTracker::onHeadChanged()
{
    if (!m_session || !m_session->isHeadKnown())
        return;
    const std::optional<CanvasRevision> &head = m_session->head();
    if (!m_baseline) {
        // The first head of this visit: news only compared with the last visit.
        m_baseline = true;
        m_shown = head;
        const QString seen = m_lastSeen ? m_lastSeen->lastSeen(m_session->channel()) : QString();
        if (head && !seen.isEmpty() && !head->hasId(seen)) {
            m_lastVisit = seen;
            emit changedSinceLastVisit(seen);
        }
        markSeen();
        return;
    }
    if (!head || (m_shown && m_shown->hasId(head->eventId)))
        return;
    const std::optional<CanvasRevision> before = std::exchange(m_shown, head);
    if (m_session->isEditing())
        return; // the editor has its own notice (Reload / Merge); seen when it closes
    markSeen();
    if (head->author.compare(m_self, Qt::CaseInsensitive) == 0
        || m_session->isOwnRevision(head->eventId))
        return; // the user's own save, or their other window's
    m_announced = between(before, *head);
    m_lastVisit.reset(); // a newer change than the one on offer
    highlight(m_announced->addedLines);
    emit announcedChanged();
}

void LiveChangeTracker::showSince(const std::optional<CanvasRevision> &from)
{
    if (!m_session || !m_session->head())
        return;
    highlight(between(from, *m_session->head()).addedLines);
}

void LiveChangeTracker::dismiss()
{
    const bool had = m_announced || m_lastVisit;
    m_announced.reset();
    m_lastVisit.reset();
    if (had)
        emit announcedChanged();
}

void LiveChangeTracker::highlight(const QStringList &lines)
{
    m_highlighted = lines;
    m_highlightTimer.start(m_highlightFor);
    emit highlightChanged();
}

} // namespace buzz::canvas
