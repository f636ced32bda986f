#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QLabel;
class QLineEdit;
class QListWidget;

namespace buzz::ui {

// A small "type to filter, Enter to go" list, as editors have for "go to heading" and "switch
// channel": the filter field keeps focus while Up / Down move through the list; Enter or a
// double-click picks the current row, Esc closes. Opened window-modal with open(). Object names
// are `<name>Dialog`, `<name>FilterEdit`, `<name>List` and `<name>EmptyLabel`.
class QuickPickDialog : public QDialog
{
    Q_OBJECT
public:
    struct Item
    {
        QString text; // what the row shows (and what the filter matches)
        QString key; // what picked() reports
        QString toolTip; // optional
    };

    QuickPickDialog(const QString &name, const QString &title, QWidget *parent);

    // The rows in order; the filter keeps that order with rows starting with the filter first.
    void setItems(const QList<Item> &items, const QString &emptyText);
    void setFilterLabel(const QString &accessibleName, const QString &placeholder);
    void setListName(const QString &accessibleName);

signals:
    void picked(const QString &key);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyFilter();
    void pickCurrent();

    QLineEdit *m_filter;
    QListWidget *m_list;
    QLabel *m_empty;
    QList<Item> m_items;
    QString m_emptyText;
};

} // namespace buzz::ui
