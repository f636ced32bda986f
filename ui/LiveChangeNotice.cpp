#include "ui/LiveChangeNotice.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasSession.h"
#include "canvas/LiveChangeTracker.h"
#include "canvas/ProfileCache.h"
#include "ui/CanvasDisplay.h"
#include "ui/CanvasPane.h"
#include "ui/CanvasView.h"
#include "ui/ChangesDialog.h"
#include "ui/UiFormat.h"

#include <QPushButton>
#include <QSet>
#include <QTextBlock>
#include <QTextEdit>

#include <qcoro/qcorotask.h>

namespace buzz::ui {

namespace {
const QString kShowAction = QStringLiteral("Show");
} // namespace

LiveChangeNotice::LiveChangeNotice(const UiServices &services, CanvasPane *pane,
                                   CanvasDisplay *display)
    : NoticeBanner(QStringLiteral("liveUpdateBanner"), pane)
    , m_services(services)
    , m_view(display->view())
{
    // Which notice this is, in its buttons' accessible names ("Close change notice").
    setPurpose(tr("change notice"));
    addAction(kShowAction, tr("Show &changes"));
    connect(action(kShowAction), &QPushButton::clicked, this, &LiveChangeNotice::showChanges);
    connect(this, &NoticeBanner::closed, this, [this] {
        if (m_tracker)
            m_tracker->dismiss();
    });
    connect(pane, &CanvasPane::sessionOpened, this, &LiveChangeNotice::follow);
    // A large canvas arrives in the view after its import: mark its changed lines then.
    connect(display, &CanvasDisplay::contentShown, this, &LiveChangeNotice::applyHighlight);
}

canvas::LiveChangeTracker *LiveChangeNotice::tracker() const
{
    return m_tracker;
}

void LiveChangeNotice::follow(canvas::CanvasSession *session)
{
    hide();
    delete m_tracker;
    m_session = session;
    if (!session)
        return;
    const QString self = m_services.profiles ? m_services.profiles->selfPubkey() : QString();
    m_tracker = new canvas::LiveChangeTracker(session, m_services.lastSeen, self, session);
    connect(m_tracker, &canvas::LiveChangeTracker::announcedChanged, this,
            &LiveChangeNotice::onAnnounced);
    connect(m_tracker, &canvas::LiveChangeTracker::changedSinceLastVisit, this,
            &LiveChangeNotice::onChangedSinceLastVisit);
    connect(m_tracker, &canvas::LiveChangeTracker::highlightChanged, this,
            &LiveChangeNotice::applyHighlight);
    // Editing shows the editor, not the rendered canvas: the notice is about what was read.
    connect(session, &canvas::CanvasSession::editingChanged, this, [this](bool editing) {
        if (editing)
            hide();
    });
}

void LiveChangeNotice::onAnnounced()
{
    const auto &change = m_tracker ? m_tracker->announced() : std::nullopt;
    if (!change) {
        hide();
        return;
    }
    const QString who = UiFormat::personName(m_services.profiles, change->to.author);
    action(kShowAction)->setText(tr("Show &changes"));
    showMessage(tr("%1 changed this canvas just now.").arg(who), Tone::Info,
                tr("%1 lines added, %2 removed, at %3.")
                    .arg(change->addedLines.size())
                    .arg(change->removedLines)
                    .arg(UiFormat::revisionTime(change->to.createdAt)));
}

void LiveChangeNotice::onChangedSinceLastVisit(const QString &revisionId)
{
    Q_UNUSED(revisionId);
    action(kShowAction)->setText(tr("What &changed"));
    showMessage(tr("This canvas changed since your last visit."), Tone::Info);
}

void LiveChangeNotice::showChanges()
{
    if (!m_tracker || !m_session || !m_session->head())
        return;
    if (const auto &change = m_tracker->announced()) {
        const QString who = UiFormat::personName(m_services.profiles, change->to.author);
        auto *dialog = new ChangesDialog(tr("Changes by %1").arg(who), *change, window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
        return;
    }
    const auto lastVisit = m_tracker->lastVisitRevision();
    if (!lastVisit || !m_services.canvas)
        return;
    // The revision seen last time is read once asked for (a display read, like History's).
    QCoro::connect(m_services.canvas->revision(m_session->channel(), *lastVisit), this,
                   [this](const client::Result<std::optional<canvas::CanvasRevision>> &seen) {
                       if (!m_tracker || !m_session || !m_session->head())
                           return;
                       if (!seen) {
                           showMessage(seen.error().shortText(), Tone::Warning);
                           return;
                       }
                       m_tracker->showSince(*seen);
                       const auto change =
                           canvas::LiveChangeTracker::between(*seen, *m_session->head());
                       auto *dialog =
                           new ChangesDialog(tr("Changes since your last visit"), change, window());
                       dialog->setAttribute(Qt::WA_DeleteOnClose);
                       dialog->open();
                   });
}

void LiveChangeNotice::applyHighlight()
{
    QSet<QString> wanted;
    const QStringList lines = m_tracker ? m_tracker->highlightedLines() : QStringList();
    for (const QString &line : lines) {
        const QString plain = canvas::LiveChangeTracker::plainLine(line);
        if (!plain.isEmpty())
            wanted.insert(plain);
    }
    QList<QTextEdit::ExtraSelection> marks;
    QColor colour = palette().color(QPalette::Highlight);
    colour.setAlpha(60);
    for (QTextBlock block = m_view->document()->begin(); block.isValid() && !wanted.isEmpty();
         block = block.next()) {
        const QString text = block.text().simplified();
        if (text.isEmpty())
            continue;
        // A rendered paragraph is a changed line's text, or holds it (a line of a paragraph).
        bool changed = wanted.contains(text);
        for (auto it = wanted.cbegin(); !changed && it != wanted.cend(); ++it)
            changed = it->size() >= 8 && text.contains(*it);
        if (!changed)
            continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.format.setBackground(colour);
        marks.append(mark);
    }
    m_view->setExtraSelections(marks);
}

QStringList LiveChangeNotice::highlightedBlocks() const
{
    QStringList blocks;
    for (const QTextEdit::ExtraSelection &mark : m_view->extraSelections())
        blocks.append(mark.cursor.block().text());
    return blocks;
}

} // namespace buzz::ui
