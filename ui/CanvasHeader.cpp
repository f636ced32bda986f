#include "ui/CanvasHeader.h"

#include "ui/RelativeTimeTicker.h"
#include "ui/UiFormat.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace buzz::ui {

CanvasHeader::CanvasHeader(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_about(new QLabel(this))
    , m_info(new QLabel(this))
    , m_editButton(new QPushButton(this))
    , m_saveButton(new QPushButton(tr("Save canvas"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
{
    setObjectName(QStringLiteral("canvasHeader"));
    m_title->setObjectName(QStringLiteral("channelTitleLabel"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.35);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long names, descriptions and "Last edited by …" wrap: as one line each they set the
    // window's minimum width (833 px in edit mode with History open) and squeezed the docks.
    m_title->setWordWrap(true);
    // A name without spaces cannot wrap: it is cut at the pane's edge rather than widening it
    // (the full name is in the window title and the channel list).
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_about->setObjectName(QStringLiteral("channelDescriptionLabel"));
    m_about->setAccessibleDescription(tr("Channel description"));
    m_about->setWordWrap(true);
    m_about->setTextFormat(Qt::PlainText);
    m_about->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_about->setForegroundRole(QPalette::PlaceholderText);
    m_info->setObjectName(QStringLiteral("revisionInfoLabel"));
    // Its accessible name is its text ("Last edited by …"), updated with it; this says what it is.
    m_info->setAccessibleDescription(tr("Current revision"));
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_info->setWordWrap(true);
    m_editButton->setObjectName(QStringLiteral("editButton"));
    m_saveButton->setObjectName(QStringLiteral("saveButton"));
    m_saveButton->setToolTip(UiFormat::withShortcut(tr("Save the canvas"), QKeySequence::Save));
    m_saveButton->setDefault(true);
    m_cancelButton->setObjectName(QStringLiteral("cancelEditButton"));
    m_cancelButton->setAccessibleName(tr("Cancel editing"));
    m_cancelButton->setToolTip(
        UiFormat::withShortcut(tr("Leave editing"), QKeySequence(Qt::Key_Escape)));
    connect(m_editButton, &QPushButton::clicked, this, &CanvasHeader::editClicked);
    connect(m_saveButton, &QPushButton::clicked, this, &CanvasHeader::saveClicked);
    connect(m_cancelButton, &QPushButton::clicked, this, &CanvasHeader::cancelClicked);
    connect(RelativeTimeTicker::instance(), &RelativeTimeTicker::tick, this,
            &CanvasHeader::showRevisionInfo);

    auto *titles = new QVBoxLayout;
    titles->setSpacing(2);
    titles->addWidget(m_title);
    titles->addWidget(m_about);
    titles->addWidget(m_info);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(titles, 1);
    layout->addWidget(m_editButton, 0, Qt::AlignBottom);
    layout->addWidget(m_cancelButton, 0, Qt::AlignBottom);
    layout->addWidget(m_saveButton, 0, Qt::AlignBottom);
    setState({});
}

QString CanvasHeader::revisionInfo(const State &state) const
{
    if (state.channelId.isEmpty())
        return tr("No channel open");
    if (state.head) {
        const QString when = UiFormat::relativeTime(state.head->createdAt);
        // A sentence of its own, not "by %1" with UiFormat's "You": "you" is the object here,
        // which other languages inflect ("von Ihnen", not "von Sie").
        QString info = state.headByYou
            ? tr("Last edited by you · %1",
                 "the header, when the signed-in user wrote the current revision; %1 is when")
                  .arg(when)
            : tr("Last edited by %1 · %2").arg(state.headAuthorName, when);
        if (!state.editing)
            return info;
        if (state.editBase && !state.editBase->hasId(state.head->eventId))
            return info
                + tr(" · you are editing an older revision (%1)")
                      .arg(UiFormat::relativeTime(state.editBase->createdAt));
        return info + tr(" · editing");
    }
    if (state.headKnown)
        return state.editing ? tr("New canvas · editing") : tr("No revisions yet");
    return state.loading ? tr("Loading canvas…") : QString();
}

void CanvasHeader::showRevisionInfo()
{
    m_info->setText(revisionInfo(m_state));
    if (!m_state.head) {
        m_info->setToolTip(QString());
        return;
    }
    // The exact time and who, beside the relative wording of the label.
    m_info->setToolTip(tr("%1\n%2\nRevision %3")
                           .arg(UiFormat::revisionTime(m_state.head->createdAt),
                                m_state.headAuthorToolTip, m_state.head->eventId));
}

void CanvasHeader::setState(const State &state)
{
    m_title->setText(state.channelId.isEmpty() ? tr("Buzz Canvas")
                                               : QStringLiteral("# ") + state.channelName);
    m_about->setText(state.channelAbout);
    m_about->setVisible(!state.channelAbout.isEmpty());
    m_state = state;
    showRevisionInfo();

    const bool canEdit = !state.channelId.isEmpty() && state.canEdit;
    m_editButton->setVisible(!state.editing);
    m_editButton->setText(state.head ? tr("Edit canvas") : tr("Create canvas"));
    m_editButton->setEnabled(canEdit && state.headKnown && state.editBlockedReason.isEmpty());
    m_editButton->setToolTip(
        !canEdit               ? tr("You can't edit this canvas.")
            : !state.headKnown ? tr("Waiting for the relay to say which revision is current.")
            : !state.editBlockedReason.isEmpty()
            ? state.editBlockedReason
            : UiFormat::withShortcut(tr("Edit the canvas"), QKeySequence(Qt::CTRL | Qt::Key_E)));
    m_saveButton->setVisible(state.editing);
    m_cancelButton->setVisible(state.editing);
    m_saveButton->setEnabled(state.editing && !state.saving && canEdit);
    m_saveButton->setText(state.saving ? tr("Saving…") : tr("Save canvas"));
    m_cancelButton->setEnabled(!state.saving);
}

} // namespace buzz::ui
