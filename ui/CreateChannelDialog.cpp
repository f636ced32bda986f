#include "ui/CreateChannelDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace buzz::ui {

CreateChannelDialog::CreateChannelDialog(std::vector<canvas::ChannelInfo> existing, QWidget *parent)
    : QDialog(parent)
    , m_existing(std::move(existing))
    , m_duplicate(new QLabel(this))
    , m_name(new QLineEdit(this))
    , m_about(new QLineEdit(this))
    , m_private(new QCheckBox(tr("Private (members only)"), this))
{
    setObjectName(QStringLiteral("createChannelDialog"));
    setWindowTitle(tr("New Channel"));
    setAccessibleName(windowTitle());
    m_name->setObjectName(QStringLiteral("channelNameEdit"));
    m_name->setAccessibleName(tr("Channel name"));
    m_name->setPlaceholderText(tr("design-reviews"));
    m_about->setObjectName(QStringLiteral("channelAboutEdit"));
    m_about->setAccessibleName(tr("Description"));
    m_private->setObjectName(QStringLiteral("channelPrivateCheck"));
    m_private->setAccessibleName(m_private->text());

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_create = buttons->addButton(tr("Create"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("createChannelConfirmButton"));
    m_create->setAccessibleName(tr("Create"));
    m_create->setEnabled(false);
    buttons->button(QDialogButtonBox::Cancel)
        ->setObjectName(QStringLiteral("createChannelCancelButton"));
    m_duplicate->setObjectName(QStringLiteral("channelNameWarningLabel"));
    m_duplicate->setWordWrap(true);
    m_duplicate->hide();
    connect(m_name, &QLineEdit::textChanged, this, &CreateChannelDialog::onNameChanged);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(QString(), m_duplicate);
    form->addRow(tr("&Description:"), m_about);
    form->addRow(QString(), m_private);
    // The fields keep a usable width and the dialog never shrinks below its contents (it was
    // clipped to the line edits' minimum).
    m_name->setMinimumWidth(fontMetrics().averageCharWidth() * 36);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    auto *layout = new QVBoxLayout(this);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void CreateChannelDialog::onNameChanged(const QString &name)
{
    m_create->setEnabled(!name.trimmed().isEmpty());
    const auto same = canvas::ChannelService::findByName(m_existing, name);
    m_duplicate->setVisible(same.has_value());
    if (same) {
        m_duplicate->setText(
            tr("⚠ A channel named #%1 already exists%2. Creating another makes two "
               "channels with "
               "the same name.")
                .arg(same->name,
                     same->isMember ? tr(" (you are in it)") : tr(" (open, you haven't joined)")));
        m_duplicate->setAccessibleName(m_duplicate->text());
    }
    m_create->setText(same ? tr("Create another") : tr("Create"));
    m_create->setAccessibleName(m_create->text());
}

canvas::CreateChannelRequest CreateChannelDialog::request() const
{
    canvas::CreateChannelRequest request;
    request.name = m_name->text().trimmed();
    request.about = m_about->text().trimmed();
    request.isPrivate = m_private->isChecked();
    return request;
}

} // namespace buzz::ui
