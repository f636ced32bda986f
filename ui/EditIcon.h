#pragma once

#include <QIcon>

class QWidget;

namespace buzz::ui {

// "Edit": the theme's document-edit (a pencil) where an icon theme is installed; otherwise a pencil
// drawn in the widget's text colour, so it reads on light and dark palettes alike. (Qt's standard
// pixmaps have no editing icon: the old one was "detailed view".)
QIcon editIcon(const QWidget *widget);

} // namespace buzz::ui
