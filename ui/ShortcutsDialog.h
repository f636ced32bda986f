#pragma once

#include <QDialog>
#include <QList>

#include <utility>

class QTableWidget;

namespace buzz::ui {

// Help → Keyboard Shortcuts: every shortcut of the window's actions, read from the actions
// themselves (so the page can never disagree with the keys), then the keys that belong to one
// field (the editor's find bar, the channel filter's Esc).
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *window);

    // (what, keys) pairs as listed, for tests and screen readers.
    QList<std::pair<QString, QString>> rows() const;

private:
    QTableWidget *m_table;
};

} // namespace buzz::ui
