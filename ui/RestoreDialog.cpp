#include "ui/RestoreDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace buzz::ui {

RestoreDialog::RestoreDialog(const QString &author, const QString &time,
                             std::optional<QString> frozenHeadId, QWidget *parent)
    : QDialog(parent)
    , m_frozenHeadId(std::move(frozenHeadId))
{
    setObjectName(QStringLiteral("restoreDialog"));
    setWindowTitle(tr("Restore this revision?"));
    setAccessibleName(windowTitle());

    auto *title = new QLabel(QStringLiteral("<b>%1</b>").arg(tr("Restore this revision?")), this);
    title->setObjectName(QStringLiteral("restoreTitleLabel"));
    m_body = tr("This publishes %1's revision from %2 as the current canvas for everyone in this "
                "channel. History is preserved: nothing is deleted, and the current revision stays "
                "in History.")
                 .arg(author, time);
    auto *body = new QLabel(m_body, this);
    body->setObjectName(QStringLiteral("restoreBodyLabel"));
    body->setWordWrap(true);
    body->setMinimumWidth(380);

    auto *buttons = new QDialogButtonBox(this);
    auto *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("restoreCancelButton"));
    cancel->setAccessibleName(tr("Cancel"));
    auto *restore = buttons->addButton(tr("Restore"), QDialogButtonBox::AcceptRole);
    restore->setObjectName(QStringLiteral("restoreConfirmButton"));
    restore->setAccessibleName(tr("Restore"));
    restore->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    // Publishing for everyone is never the Enter-key default. A dialog's push buttons are
    // "auto default": whichever has focus takes Enter, so Restore must not be one, and focus
    // starts on Cancel.
    restore->setAutoDefault(false);
    cancel->setAutoDefault(true);
    cancel->setDefault(true);
    cancel->setFocus(Qt::OtherFocusReason);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(body);
    layout->addSpacing(8);
    layout->addWidget(buttons);
}

} // namespace buzz::ui
