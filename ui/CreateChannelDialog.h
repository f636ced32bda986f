#pragma once

#include "canvas/ChannelService.h"

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QPushButton;

namespace buzz::ui {

// Name, description and visibility of a new channel.
class CreateChannelDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CreateChannelDialog(QWidget *parent = nullptr);
    canvas::CreateChannelRequest request() const;

private:
    QLineEdit *m_name;
    QLineEdit *m_about;
    QCheckBox *m_private;
    QPushButton *m_create;
};

} // namespace buzz::ui
