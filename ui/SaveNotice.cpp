#include "ui/SaveNotice.h"

#include "ui/OutcomePresenter.h"

#include <QPushButton>
#include <QTimer>

namespace buzz::ui {

SaveNotice::SaveNotice(QWidget *parent)
    : NoticeBanner(QStringLiteral("saveNotice"), parent)
{
    setPurpose(tr("save notice"));
    addAction(QStringLiteral("Merge"), tr("&Merge…"));
    addAction(QStringLiteral("Retry"), tr("&Retry"));
}

void SaveNotice::follow(canvas::CanvasSession *session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    m_showsWaiting = false;
    hide();
    if (!session)
        return;
    connect(session, &canvas::CanvasSession::waitingForRelayChanged, this,
            &SaveNotice::onSessionChanged);
    connect(session, &canvas::CanvasSession::stateChanged, this, &SaveNotice::onSessionChanged);
}

void SaveNotice::onSessionChanged()
{
    // Gone the moment it stops being true: the save went out (or the edit ended).
    if (m_showsWaiting && m_session && !m_session->isWaitingForRelay()) {
        m_showsWaiting = false;
        hide();
    }
}

void SaveNotice::showSettled(const canvas::CanvasSession::Settled &settled)
{
    if (!m_session)
        return;
    const bool waiting = m_session->isWaitingForRelay();
    const OutcomePresenter::Notice notice = OutcomePresenter::notice(
        settled, m_session->canRetry(), m_session->mergeOffer().has_value(), waiting);
    m_showsWaiting = waiting;
    showMessage(notice.text, notice.tone, notice.details);
    setActionVisible(QStringLiteral("Merge"), notice.offerMerge);
    setActionVisible(QStringLiteral("Retry"), notice.offerRetry);
    if (waiting)
        action(QStringLiteral("Retry"))->setText(tr("&Retry now"));
    else
        action(QStringLiteral("Retry"))->setText(tr("&Retry"));
    if (notice.autoHide) {
        QTimer::singleShot(kPositiveNoticeMs, this, [this, text = notice.text] {
            if (this->text() == text)
                hide();
        });
    }
}

} // namespace buzz::ui
