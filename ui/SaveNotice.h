#pragma once

#include "canvas/CanvasSession.h"
#include "ui/NoticeBanner.h"

#include <QPointer>

namespace buzz::ui {

// `saveNotice` above the canvas: how the last save of the open session ended (worded by
// OutcomePresenter), with Merge and Retry. It says only what is still true: a plain "Saved."
// fades, and "Your save is waiting for the relay" goes as soon as the save goes out by itself
// (CanvasSession::isWaitingForRelay) — "Saving…" in the status bar takes over, then the outcome.
class SaveNotice : public NoticeBanner
{
    Q_OBJECT
public:
    static constexpr int kPositiveNoticeMs = 5000;

    explicit SaveNotice(QWidget *parent = nullptr);

    // The session whose saves it reports (nullptr: none); hides what it showed for another.
    void follow(canvas::CanvasSession *session);
    // The save `settled` has just ended: the notice for it.
    void showSettled(const canvas::CanvasSession::Settled &settled);

private:
    void onSessionChanged();

    QPointer<canvas::CanvasSession> m_session;
    bool m_showsWaiting = false; // the text on show is the "waiting for the relay" one
};

} // namespace buzz::ui
