#include "ui/CanvasFileActions.h"

#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QPrintDialog>
#include <QPrinter>
#include <QStatusBar>
#include <QTextDocument>

#include <memory>

namespace buzz::ui {

CanvasFileActions::CanvasFileActions(CanvasPane *pane, QMenu *fileMenu, QWidget *window)
    : QObject(window)
    , m_pane(pane)
    , m_window(window)
{
    const auto add = [&](const QString &name, const QString &text, auto slot) {
        QAction *action = fileMenu->addAction(text);
        action->setObjectName(name);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    add(QStringLiteral("importMarkdownAction"), tr("&Import Markdown…"), [this] { import(); });
    add(QStringLiteral("exportMarkdownAction"), tr("Export as &Markdown…"),
        [this] { exportAs(CanvasExport::Format::Markdown); });
    add(QStringLiteral("exportHtmlAction"), tr("Export as &HTML…"),
        [this] { exportAs(CanvasExport::Format::Html); });
    add(QStringLiteral("exportPdfAction"), tr("Export as &PDF…"),
        [this] { exportAs(CanvasExport::Format::Pdf); });
    add(QStringLiteral("printAction"), tr("&Print…"), [this] { print(); });
}

QString CanvasFileActions::markdown() const
{
    if (m_pane->isEditing())
        return m_pane->editor()->text();
    const auto head = m_pane->head();
    return head ? head->content : QString();
}

void CanvasFileActions::tell(const QString &message) const
{
    if (auto *window = qobject_cast<QMainWindow *>(m_window))
        window->statusBar()->showMessage(message, 15000);
}

void CanvasFileActions::exportAs(CanvasExport::Format format)
{
    const QString name =
        m_pane->channel().name.isEmpty() ? QStringLiteral("canvas") : m_pane->channel().name;
    QString filter;
    QString suffix;
    switch (format) {
    case CanvasExport::Format::Markdown:
        filter = tr("Markdown (*.md)");
        suffix = QStringLiteral("md");
        break;
    case CanvasExport::Format::Html:
        filter = tr("Web page (*.html)");
        suffix = QStringLiteral("html");
        break;
    case CanvasExport::Format::Pdf:
        filter = tr("PDF (*.pdf)");
        suffix = QStringLiteral("pdf");
        break;
    }
    auto *dialog = new QFileDialog(m_window, tr("Export the Canvas"), QString(), filter);
    dialog->setObjectName(QStringLiteral("exportFileDialog"));
    dialog->setAccessibleName(tr("Export the Canvas"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->selectFile(name + QLatin1Char('.') + suffix);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The text as it is now: typing on while the dialog is open does not change what is written.
    const QString text = markdown();
    const QString title = QStringLiteral("# ") + name;
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, format, text, title](const QString &path) {
                QString error;
                if (CanvasExport::write(format, text, title, m_window->palette(), path, &error))
                    tell(tr("Exported to %1.").arg(QFileInfo(path).fileName()));
                else
                    tell(tr("Couldn't export to %1: %2").arg(QFileInfo(path).fileName(), error));
            });
    dialog->open();
}

void CanvasFileActions::print()
{
    auto printer = std::make_shared<QPrinter>(QPrinter::HighResolution);
    auto *dialog = new QPrintDialog(printer.get(), m_window);
    dialog->setObjectName(QStringLiteral("printDialog"));
    dialog->setAccessibleName(tr("Print the Canvas"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString text = markdown();
    const QString title = QStringLiteral("# ") + m_pane->channel().name;
    connect(dialog, &QDialog::accepted, this, [this, printer, text, title] {
        printer->setDocName(title);
        CanvasExport::render(text, title, m_window->palette())->print(printer.get());
    });
    dialog->open();
}

void CanvasFileActions::import()
{
    auto *dialog = new QFileDialog(m_window, tr("Import Markdown"), QString(),
                                   tr("Markdown (*.md *.markdown *.txt);;All files (*)"));
    dialog->setObjectName(QStringLiteral("importFileDialog"));
    dialog->setAccessibleName(tr("Import Markdown"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &CanvasFileActions::importFile);
    dialog->open();
}

void CanvasFileActions::importFile(const QString &path)
{
    const QString file = QFileInfo(path).fileName();
    QString error;
    const auto text = CanvasExport::readMarkdown(path, &error);
    if (!text) {
        tell(tr("Couldn't import %1: %2").arg(file, error));
        return;
    }
    m_pane->startEditing(); // continues the edit in progress, if any
    if (!m_pane->isEditing()) {
        tell(tr("Couldn't import %1: this canvas can't be edited now.").arg(file));
        return;
    }
    m_pane->editor()->replaceText(*text); // one undo step: Ctrl+Z brings the text before back
    tell(tr("Imported %1 into the editor (not saved yet; Undo brings the previous text back).")
             .arg(file));
}

} // namespace buzz::ui
