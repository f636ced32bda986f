#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QRadioButton;

namespace buzz::ui {

// Which relay to use: the embedded one (default, nothing to set up) or a remote URL. The choice is
// stored by the app; a relay given with --relay or BUZZ_RELAY_URL wins and is shown as such.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Values
    {
        bool embedded = true;
        QString relayUrl;
    };

    SettingsDialog(Values current, const QString &overrideNote, QWidget *parent = nullptr);
    Values values() const;

private:
    void validate();

    QRadioButton *m_embedded;
    QRadioButton *m_remote;
    QLineEdit *m_url;
    QLabel *m_problem;
    QPushButton *m_ok = nullptr;
};

} // namespace buzz::ui
