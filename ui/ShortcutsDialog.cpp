#include "ui/ShortcutsDialog.h"

#include "ui/CanvasEditor.h"
#include "ui/MarkdownEditKeys.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace buzz::ui {

ShortcutsDialog::ShortcutsDialog(QWidget *window)
    : QDialog(window)
    , m_table(new QTableWidget(this))
{
    setObjectName(QStringLiteral("keyboardShortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    setAccessibleName(windowTitle());

    QList<std::pair<QString, QString>> entries;
    QList<QAction *> actions = window->findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        QString what = action->text();
        what.remove(QLatin1Char('&'));
        what.remove(QStringLiteral("…"));
        entries.append({what, keys.join(tr(" or "))});
    }
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    const auto keys = [](QKeySequence::StandardKey key) {
        return QKeySequence(key).toString(QKeySequence::NativeText);
    };
    // Keys of one field, which no action lists.
    entries.append({tr("Find in the canvas (while editing)"), keys(QKeySequence::Find)});
    entries.append({tr("Find and replace in the canvas (while editing)"),
                    CanvasEditor::replaceShortcut().toString(QKeySequence::NativeText)});
    entries.append(
        {tr("Next / previous match"),
         keys(QKeySequence::FindNext) + QStringLiteral(" / ") + keys(QKeySequence::FindPrevious)});
    entries.append({tr("Undo / redo (also past a save)"),
                    keys(QKeySequence::Undo) + QStringLiteral(" / ") + keys(QKeySequence::Redo)});
    entries.append(MarkdownEditKeys::describedKeys());
    entries.append({tr("Clear the channel filter"),
                    QKeySequence(Qt::Key_Escape).toString(QKeySequence::NativeText)});

    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    m_table->setRowCount(int(entries.size()));
    for (int row = 0; row < entries.size(); ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(entries[row].first));
        m_table->setItem(row, 1, new QTableWidgetItem(entries[row].second));
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("shortcutsCloseButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(520, 460);
}

QList<std::pair<QString, QString>> ShortcutsDialog::rows() const
{
    QList<std::pair<QString, QString>> result;
    for (int row = 0; row < m_table->rowCount(); ++row)
        result.append({m_table->item(row, 0)->text(), m_table->item(row, 1)->text()});
    return result;
}

} // namespace buzz::ui
