#include "ui/QuickPickDialog.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace buzz::ui {

QuickPickDialog::QuickPickDialog(const QString &name, const QString &title, QWidget *parent)
    : QDialog(parent)
    , m_filter(new QLineEdit(this))
    , m_list(new QListWidget(this))
    , m_empty(new QLabel(this))
{
    setObjectName(name + QStringLiteral("Dialog"));
    setWindowTitle(title);
    setAccessibleName(title);
    setAttribute(Qt::WA_DeleteOnClose);
    m_filter->setObjectName(name + QStringLiteral("FilterEdit"));
    m_filter->setClearButtonEnabled(true);
    m_list->setObjectName(name + QStringLiteral("List"));
    m_list->setUniformItemSizes(true);
    m_empty->setObjectName(name + QStringLiteral("EmptyLabel"));
    m_empty->setWordWrap(true);
    m_empty->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_empty);
    layout->addWidget(m_list, 1);
    resize(460, 380);
    m_filter->installEventFilter(this); // Up / Down / Page keys move through the list
    connect(m_filter, &QLineEdit::textChanged, this, &QuickPickDialog::applyFilter);
    connect(m_filter, &QLineEdit::returnPressed, this, &QuickPickDialog::pickCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &QuickPickDialog::pickCurrent);
}

void QuickPickDialog::setItems(const QList<Item> &items, const QString &emptyText)
{
    m_items = items;
    m_emptyText = emptyText;
    applyFilter();
}

void QuickPickDialog::setFilterLabel(const QString &accessibleName, const QString &placeholder)
{
    m_filter->setAccessibleName(accessibleName);
    m_filter->setPlaceholderText(placeholder);
}

void QuickPickDialog::setListName(const QString &accessibleName)
{
    m_list->setAccessibleName(accessibleName);
    m_empty->setAccessibleDescription(accessibleName); // named by what it says
}

bool QuickPickDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        switch (key->key()) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            QApplication::sendEvent(m_list, event);
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void QuickPickDialog::applyFilter()
{
    // "#gen" and "gen" both find "# general"; headings are indented by level.
    const auto bare = [](const QString &text) {
        qsizetype start = 0;
        while (start < text.size() && (text[start].isSpace() || text[start] == QLatin1Char('#')))
            ++start;
        return text.mid(start).trimmed();
    };
    const QString filter = bare(m_filter->text());
    QList<const Item *> starting;
    QList<const Item *> containing;
    for (const Item &item : m_items) {
        const QString text = bare(item.text);
        if (filter.isEmpty() || text.contains(filter, Qt::CaseInsensitive))
            (text.startsWith(filter, Qt::CaseInsensitive) ? starting : containing).append(&item);
    }
    m_list->clear();
    for (const Item *item : starting + containing) {
        auto *row = new QListWidgetItem(item->text, m_list);
        row->setData(Qt::UserRole, item->key);
        row->setToolTip(item->toolTip);
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    const bool empty = m_list->count() == 0;
    m_empty->setText(m_items.isEmpty() ? m_emptyText : tr("Nothing matches “%1”.").arg(filter));
    m_empty->setVisible(empty);
}

void QuickPickDialog::pickCurrent()
{
    QListWidgetItem *current = m_list->currentItem();
    if (!current)
        return;
    const QString key = current->data(Qt::UserRole).toString();
    accept();
    emit picked(key);
}

} // namespace buzz::ui
