#include "ui/ChannelAccessNotice.h"

#include "canvas/CanvasWriteRules.h"
#include "canvas/ChannelService.h"

#include <QPushButton>

namespace buzz::ui {

ChannelAccessNotice::ChannelAccessNotice(QWidget *parent)
    : NoticeBanner(QStringLiteral("readOnlyNotice"), parent)
{
    setPurpose(tr("channel access notice"));
    addAction(QStringLiteral("Join"), tr("&Join channel"));
    setClosable(false);
    connect(action(QStringLiteral("Join")), &QPushButton::clicked, this,
            &ChannelAccessNotice::joinClicked);
}

void ChannelAccessNotice::showFor(const canvas::ChannelInfo &channel)
{
    using Access = canvas::CanvasWriteRules::Access;
    const Access access = canvas::CanvasWriteRules::access(channel);
    // An open channel takes anyone's canvas writes (relay ingest step 8): not joining it is worth a
    // word and a Join button, never a "read-only".
    const bool openNotJoined = access == Access::Allowed && !channel.isMember;
    if (access == Access::NoChannel || (access == Access::Allowed && !openNotJoined)) {
        hide();
        return;
    }
    setActionVisible(QStringLiteral("Join"), openNotJoined);
    if (openNotJoined)
        showMessage(tr("You haven't joined this open channel. Anyone can edit its "
                       "canvas; join to keep it among your channels."),
                    Tone::Info);
    else if (access == Access::Archived)
        showMessage(tr("This channel is archived — its canvas is read-only."), Tone::Info);
    else
        showMessage(tr("Read-only: you are not a member of this private channel."), Tone::Info);
}

} // namespace buzz::ui
