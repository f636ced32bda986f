#pragma once

#include "canvas/CanvasRevision.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

namespace buzz::ui {

// The canvas pane's header: channel title, who last edited the current revision and when (and
// whether the edit is based on an older one), and the Edit / Cancel / Save buttons. A view of the
// pane's state and nothing more: it is told everything through setState and only reports clicks.
class CanvasHeader : public QWidget
{
    Q_OBJECT
public:
    struct State
    {
        QString channelId; // empty: no channel open
        QString channelName;
        QString channelAbout; // the channel's description (kind 39000 "about")
        bool canEdit = false; // the channel lets this identity edit its canvas
        std::optional<canvas::CanvasRevision> head;
        QString headAuthorName; // the profile name (unused when headByYou)
        bool headByYou = false; // the signed-in identity wrote the current revision
        QString headAuthorToolTip; // name and npub
        std::optional<canvas::CanvasRevision> editBase;
        bool headKnown = false; // a head read succeeded (the edit base is trustworthy)
        bool loading = false;
        bool editing = false;
        bool saving = false;
        QString editBlockedReason; // non-empty: Edit is disabled for this reason (a restore)
    };

    explicit CanvasHeader(QWidget *parent = nullptr);

    void setState(const State &state);

signals:
    void editClicked();
    void saveClicked();
    void cancelClicked();

private:
    QString revisionInfo(const State &state) const;
    // Also on every RelativeTimeTicker::tick, so "5 min ago" stays true.
    void showRevisionInfo();

    State m_state;
    QLabel *m_title;
    QLabel *m_about;
    QLabel *m_info;
    QPushButton *m_editButton;
    QPushButton *m_saveButton;
    QPushButton *m_cancelButton;
};

} // namespace buzz::ui
