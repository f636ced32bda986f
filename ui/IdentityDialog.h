#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace buzz::canvas {
class Identity;
class ProfileCache;
} // namespace buzz::canvas

namespace buzz::ui {

// Who you are on the relay: the display name others see, the npub, where the secret key is kept
// (keychain or file), importing an nsec/hex key and generating a new one. The secret is never shown
// unless asked for.
class IdentityDialog : public QDialog
{
    Q_OBJECT
public:
    // `profiles` (optional) lets the user set the display name others see (a kind-0 profile).
    explicit IdentityDialog(canvas::Identity *identity, canvas::ProfileCache *profiles = nullptr,
                            QWidget *parent = nullptr);

private:
    void refresh();
    void saveDisplayName();
    void importKey();
    void generateKey();

    canvas::Identity *m_identity;
    canvas::ProfileCache *m_profiles;
    QLineEdit *m_displayName = nullptr;
    QPushButton *m_saveName = nullptr;
    QLineEdit *m_npub;
    QLabel *m_storage;
    QLineEdit *m_import;
    QPushButton *m_importButton;
    QPushButton *m_generateButton;
    QLabel *m_status;
    bool m_confirmGenerate = false;
};

} // namespace buzz::ui
