#include "ui/SettingsDialog.h"

#include "net/client/RelayConnection.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace buzz::ui {

SettingsDialog::SettingsDialog(Values current, const QString &overrideNote, QWidget *parent)
    : QDialog(parent)
    , m_embedded(new QRadioButton(
          tr("&Embedded relay (runs inside the app, data stays on this computer)"), this))
    , m_remote(new QRadioButton(tr("&Remote relay:"), this))
    , m_url(new QLineEdit(this))
    , m_problem(new QLabel(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    setAccessibleName(windowTitle());
    m_embedded->setObjectName(QStringLiteral("embeddedRelayRadio"));
    m_embedded->setAccessibleName(tr("Embedded relay"));
    m_remote->setObjectName(QStringLiteral("remoteRelayRadio"));
    m_remote->setAccessibleName(tr("Remote relay"));
    m_url->setObjectName(QStringLiteral("relayUrlEdit"));
    m_url->setAccessibleName(tr("Relay URL"));
    m_url->setPlaceholderText(QStringLiteral("wss://relay.example.com"));
    m_url->setText(current.relayUrl);
    m_problem->setObjectName(QStringLiteral("settingsProblemLabel"));
    m_problem->setWordWrap(true);
    (current.embedded ? m_embedded : m_remote)->setChecked(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("settingsOkButton"));
    buttons->button(QDialogButtonBox::Cancel)
        ->setObjectName(QStringLiteral("settingsCancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_url, &QLineEdit::textChanged, this, &SettingsDialog::validate);
    connect(m_remote, &QRadioButton::toggled, this, &SettingsDialog::validate);

    auto *note = new QLabel(
        tr("Changing the relay reconnects the app. Unsaved text is kept as a draft."), this);
    note->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_embedded);
    layout->addWidget(m_remote);
    layout->addWidget(m_url);
    layout->addWidget(m_problem);
    if (!overrideNote.isEmpty()) {
        auto *override = new QLabel(overrideNote, this);
        override->setObjectName(QStringLiteral("settingsOverrideLabel"));
        override->setWordWrap(true);
        layout->addWidget(override);
    }
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(480, sizeHint().height());
    validate();
}

SettingsDialog::Values SettingsDialog::values() const
{
    Values values;
    values.embedded = m_embedded->isChecked();
    values.relayUrl = m_url->text().trimmed();
    return values;
}

void SettingsDialog::validate()
{
    m_url->setEnabled(m_remote->isChecked());
    QString problem;
    if (m_remote->isChecked()) {
        if (m_url->text().trimmed().isEmpty())
            problem = tr("Enter the relay's address, for example wss://relay.example.com.");
        else if (client::RelayConnection::parseRelayUrl(m_url->text().trimmed()).isEmpty())
            problem = tr("This is not a relay address (use ws://, wss://, http:// or https://).");
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_ok->setEnabled(problem.isEmpty());
}

} // namespace buzz::ui
