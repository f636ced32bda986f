#pragma once

#include "ui/CanvasExport.h"

#include <QObject>

class QMenu;
class QWidget;

namespace buzz::ui {

class CanvasPane;

// File → Import Markdown…, Export as Markdown / HTML / PDF…, Print…: the canvas as shown (the
// editor's text while editing, else the current revision). An import goes into the editor as an
// unsaved edit, one undo step, so the text it replaces is one Ctrl+Z away and nothing is saved
// until the user saves. Every file dialog is Qt's own (window-modal, open()), so tests find it.
class CanvasFileActions : public QObject
{
    Q_OBJECT
public:
    CanvasFileActions(CanvasPane *pane, QMenu *fileMenu, QWidget *window);

    void exportAs(CanvasExport::Format format);
    void print();
    void import();
    void importFile(const QString &path); // what the import dialog's choice does

private:
    QString markdown() const;
    void tell(const QString &message) const; // the status bar

    CanvasPane *m_pane;
    QWidget *m_window;
};

} // namespace buzz::ui
