#pragma once

#include "ui/NoticeBanner.h"

namespace buzz::canvas {
struct ChannelInfo;
}

namespace buzz::ui {

// The strip that says what the relay's write rule (canvas::CanvasWriteRules) means for the open
// channel: hidden when the user can edit as a member, a Join offer for an open channel the user
// has not joined, and why the canvas is read-only otherwise. One place for that wording, so the
// pane only says which channel is shown.
class ChannelAccessNotice : public NoticeBanner
{
    Q_OBJECT
public:
    explicit ChannelAccessNotice(QWidget *parent = nullptr);

    void showFor(const canvas::ChannelInfo &channel);

signals:
    void joinClicked();
};

} // namespace buzz::ui
