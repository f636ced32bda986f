#pragma once

#include "canvas/ChannelService.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace buzz::ui {

// Name, description and visibility of a new channel. A name already in `existing` is allowed (the
// relay allows it) but warned about before Create, which then reads "Create another".
class CreateChannelDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CreateChannelDialog(std::vector<canvas::ChannelInfo> existing = {},
                                 QWidget *parent = nullptr);
    canvas::CreateChannelRequest request() const;

private:
    void onNameChanged(const QString &name);

    std::vector<canvas::ChannelInfo> m_existing;
    QLabel *m_duplicate;
    QLineEdit *m_name;
    QLineEdit *m_about;
    QCheckBox *m_private;
    QPushButton *m_create;
};

} // namespace buzz::ui
