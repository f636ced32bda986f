#pragma once

class QAbstractItemView;
class QWidget;

namespace buzz::ui {

// The app's own accessible interfaces (QAccessible::installFactory): the rendered canvas is a
// document with readable text (CanvasViewAccessible), a NoticeBanner is an alert, so screen
// readers announce it when it appears. Idempotent: NoticeBanner and CanvasView call it as they
// are built, before any event can cache the default interface for them.
void installAccessibleFactories();

// Assistive technologies select a row (AT-SPI Selection / Table) without moving the current index;
// the panels react to the current index, so a selection made that way becomes current (History's
// Restore, the channel list and search results then follow it like a click).
void makeSelectionCurrent(QAbstractItemView *view);

// Qt's own controls inside `root` have no accessible name, or one every dock shares ("Close",
// "Float"): each gets a name that says what it belongs to ("Close History", "Clear Filter
// channels"), so no two controls of a window share a name and AT-SPI tools can address each one.
// Names set already are kept. Call it once the widgets exist (MainWindow does, at the end of its
// constructor).
void nameStandardControls(QWidget *root);

} // namespace buzz::ui
