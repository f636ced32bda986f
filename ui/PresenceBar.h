#pragma once

#include "ui/UiServices.h"

#include <QPointer>
#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace buzz::canvas {
class CanvasSession;
}

namespace buzz::ui {

class CanvasPane;

// "Who is here" under the canvas header: everyone else who has this channel open (initials as
// avatars, their profile names, the npub on hover) and who of them is editing now, from
// canvas::PresenceModel. While the user edits and someone else does too, "Maya is editing too"
// warns that a save may meet their change. Hidden while nobody else is here.
//
// It also tells canvas::PresenceService what the pane shows (the channel, whether its editor is
// open, each keystroke), so presence and typing follow the pane without the pane knowing.
class PresenceBar : public QWidget
{
    Q_OBJECT
public:
    PresenceBar(const UiServices &services, CanvasPane *pane);

    QString summary() const; // the sentence the bar shows ("Maya and Bob are here")
    QString warning() const; // "Maya is editing too…", empty when not shown

private:
    void follow(canvas::CanvasSession *session);
    void refresh();
    QLabel *avatarFor(const QString &pubkey, bool editing);
    QString nameOf(const QString &pubkey) const;
    static QString initials(const QString &name);

    UiServices m_services;
    QPointer<canvas::CanvasSession> m_session;
    QWidget *m_row;
    QHBoxLayout *m_avatars;
    QLabel *m_summary;
    QLabel *m_warning;
};

} // namespace buzz::ui
