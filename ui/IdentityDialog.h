#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace buzz::canvas {
class Identity;
}

namespace buzz::ui {

// Who you are on the relay: the npub, where the secret key is kept (keychain or file), importing
// an nsec/hex key and generating a new one. The secret is never shown unless asked for.
class IdentityDialog : public QDialog
{
    Q_OBJECT
public:
    explicit IdentityDialog(canvas::Identity *identity, QWidget *parent = nullptr);

private:
    void refresh();
    void importKey();
    void generateKey();

    canvas::Identity *m_identity;
    QLineEdit *m_npub;
    QLabel *m_storage;
    QLineEdit *m_import;
    QPushButton *m_importButton;
    QPushButton *m_generateButton;
    QLabel *m_status;
    bool m_confirmGenerate = false;
};

} // namespace buzz::ui
