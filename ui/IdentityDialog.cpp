#include "ui/IdentityDialog.h"

#include "canvas/Identity.h"
#include "canvas/ProfileCache.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <qcoro/qcorotask.h>

namespace buzz::ui {

IdentityDialog::IdentityDialog(canvas::Identity *identity, canvas::ProfileCache *profiles,
                               QWidget *parent)
    : QDialog(parent)
    , m_identity(identity)
    , m_profiles(profiles)
    , m_npub(new QLineEdit(this))
    , m_storage(new QLabel(this))
    , m_import(new QLineEdit(this))
    , m_importButton(new QPushButton(tr("&Import"), this))
    , m_generateButton(new QPushButton(tr("&Generate new key…"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("identityDialog"));
    setWindowTitle(tr("Identity"));
    setAccessibleName(windowTitle());
    m_npub->setObjectName(QStringLiteral("identityNpubEdit"));
    m_npub->setAccessibleName(tr("Your public key (npub)"));
    m_npub->setReadOnly(true);
    m_storage->setObjectName(QStringLiteral("identityStorageLabel"));
    m_storage->setWordWrap(true);
    m_storage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_import->setObjectName(QStringLiteral("importKeyEdit"));
    m_import->setAccessibleName(tr("Secret key to import (nsec or hex)"));
    m_import->setPlaceholderText(tr("nsec1… or 64 hex characters"));
    m_import->setEchoMode(QLineEdit::Password);
    m_importButton->setObjectName(QStringLiteral("importKeyButton"));
    m_importButton->setAccessibleName(tr("Import key"));
    m_importButton->setEnabled(false);
    m_generateButton->setObjectName(QStringLiteral("generateKeyButton"));
    m_generateButton->setAccessibleName(tr("Generate new key"));
    m_status->setObjectName(QStringLiteral("identityStatusLabel"));
    m_status->setWordWrap(true);
    auto *copy = new QPushButton(tr("&Copy"), this);
    copy->setObjectName(QStringLiteral("copyNpubButton"));
    copy->setAccessibleName(tr("Copy npub"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_npub->text()); });
    connect(m_import, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_importButton->setEnabled(!text.trimmed().isEmpty()); });
    connect(m_importButton, &QPushButton::clicked, this, &IdentityDialog::importKey);
    connect(m_generateButton, &QPushButton::clicked, this, &IdentityDialog::generateKey);
    connect(m_identity, &canvas::Identity::changed, this, &IdentityDialog::refresh);

    auto *npubRow = new QHBoxLayout;
    npubRow->addWidget(m_npub, 1);
    npubRow->addWidget(copy);
    auto *importRow = new QHBoxLayout;
    importRow->addWidget(m_import, 1);
    importRow->addWidget(m_importButton);
    auto *form = new QFormLayout;
    if (m_profiles) {
        m_displayName = new QLineEdit(this);
        m_displayName->setObjectName(QStringLiteral("displayNameEdit"));
        m_displayName->setAccessibleName(tr("Display name"));
        m_displayName->setPlaceholderText(tr("How others see you, e.g. Alice"));
        m_displayName->setMaxLength(100);
        m_saveName = new QPushButton(tr("Save &name"), this);
        m_saveName->setObjectName(QStringLiteral("saveDisplayNameButton"));
        m_saveName->setAccessibleName(tr("Save display name"));
        m_saveName->setEnabled(false);
        connect(m_displayName, &QLineEdit::textEdited, this,
                [this] { m_saveName->setEnabled(m_identity->hasKey()); });
        connect(m_displayName, &QLineEdit::returnPressed, this, &IdentityDialog::saveDisplayName);
        connect(m_saveName, &QPushButton::clicked, this, &IdentityDialog::saveDisplayName);
        auto *nameRow = new QHBoxLayout;
        nameRow->addWidget(m_displayName, 1);
        nameRow->addWidget(m_saveName);
        form->addRow(tr("&Display name:"), nameRow);
        // The name the relay has now (fetched if it is not cached yet).
        connect(m_profiles, &canvas::ProfileCache::profilesUpdated, this, [this] {
            if (!m_displayName->isModified())
                refresh();
        });
    }
    form->addRow(tr("Public key:"), npubRow);
    form->addRow(tr("Stored in:"), m_storage);
    form->addRow(tr("Import key:"), importRow);
    form->addRow(QString(), m_generateButton);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("identityCloseButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
    refresh();
}

void IdentityDialog::saveDisplayName()
{
    if (!m_profiles || !m_identity->hasKey())
        return;
    m_saveName->setEnabled(false);
    m_status->setText(tr("Saving your name…"));
    QCoro::connect(
        m_profiles->publishDisplayName(m_displayName->text()), this,
        [this](client::Result<canvas::ProfileHit> saved) {
            if (!saved) {
                m_saveName->setEnabled(true);
                m_status->setText(tr("Couldn't save your name: %1").arg(saved.error().shortText()));
                m_status->setToolTip(saved.error().longText());
                return;
            }
            m_displayName->setModified(false);
            m_status->setText(saved->displayName.isEmpty()
                                  ? tr("Name removed. Others see your npub.")
                                  : tr("Saved. Others now see you as %1.").arg(saved->displayName));
        });
}

void IdentityDialog::refresh()
{
    if (m_displayName && !m_displayName->isModified()) {
        const QString self = m_identity->publicKeyHex();
        const auto profile = self.isEmpty() ? std::nullopt : m_profiles->profile(self);
        if (!profile && !self.isEmpty())
            m_profiles->request({self});
        m_displayName->setText(profile ? profile->displayName : QString());
        m_displayName->setEnabled(!self.isEmpty());
    }
    m_npub->setText(m_identity->hasKey() ? m_identity->npub() : tr("(no key)"));
    QString storage = m_identity->storageDescription();
    if (m_identity->source() == canvas::Identity::Source::Environment)
        storage += tr(" — set by the environment, so Import and Generate apply "
                      "only after it is unset.");
    m_storage->setText(storage);
}

void IdentityDialog::importKey()
{
    const QString secret = m_import->text().trimmed();
    m_importButton->setEnabled(false);
    m_status->setText(tr("Importing…"));
    QCoro::connect(m_identity->import(secret), this, [this](Expected<void, QString> result) {
        m_importButton->setEnabled(true);
        if (!result) {
            m_status->setText(result.error());
            return;
        }
        m_import->clear();
        m_status->setText(
            tr("Imported. The relay now knows you as %1.").arg(m_identity->shortNpub()));
        refresh();
    });
}

void IdentityDialog::generateKey()
{
    if (!m_confirmGenerate) {
        // Two steps instead of a modal box: the first click explains, the second acts.
        m_confirmGenerate = true;
        m_generateButton->setText(tr("Replace my key with a new one"));
        m_status->setText(tr("A new key is a new person on the relay: channels you "
                             "belong to stay with the old "
                             "key. Import the old nsec to go back."));
        return;
    }
    m_confirmGenerate = false;
    m_generateButton->setEnabled(false);
    QCoro::connect(m_identity->generate(), this, [this](bool stored) {
        m_generateButton->setEnabled(true);
        m_generateButton->setText(tr("&Generate new key…"));
        m_status->setText(stored ? tr("New key generated.")
                                 : tr("New key generated, but it could not be stored: %1")
                                       .arg(m_identity->lastError()));
        refresh();
    });
}

} // namespace buzz::ui
