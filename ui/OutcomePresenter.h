#pragma once

#include "canvas/CanvasSession.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelayError.h"
#include "ui/NoticeBanner.h"

#include <QCoreApplication>
#include <QString>

namespace buzz::ui {

// How the desktop words what happened to a save or a restore, in one place (translatable): the
// canvas pane's save notice, the History panel's notice and the status bar all read from here,
// so the same outcome reads the same everywhere.
class OutcomePresenter
{
    Q_DECLARE_TR_FUNCTIONS(OutcomePresenter)
public:
    struct Notice
    {
        QString text; // empty: nothing to show
        NoticeBanner::Tone tone = NoticeBanner::Tone::Info;
        QString details; // tooltip
        bool offerRetry = false;
        bool offerMerge = false;
        bool autoHide = false; // a plain success fades after a few seconds
    };

    // The notice for a settled save or restore. `canRetry` and `canMerge` come from the session
    // (whether Retry and Merge can act now); `waitingForRelay`: the save failed for want of a
    // connection and goes out by itself when the relay is back (the outage itself is worded by
    // the connection banner, not again here).
    static Notice notice(const canvas::CanvasSession::Settled &settled, bool canRetry,
                         bool canMerge, bool waitingForRelay = false);
    // A relay failure as a sentence and its details (auth refusals get the Settings/Identity
    // hint).
    static Notice relayError(const client::RelayError &error);
    // An outage is worded once, by the connection banner (and the status bar with it): true when
    // `error` is the relay being unreachable while the connection is down, so a list or a notice
    // says it waits for the relay instead of repeating "Can't reach the relay."
    static bool isOutage(const client::RelayError &error,
                         const client::RelayConnection *connection);
    // The status bar's one-word-ish save state for an open canvas.
    static QString saveState(const canvas::CanvasSession &session, const QString &draftSavedAt);
};

} // namespace buzz::ui
