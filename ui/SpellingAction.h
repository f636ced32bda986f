#pragma once

class QAction;
class QMenu;
class QSettings;

namespace buzz::ui {

class CanvasEditor;
class SpellChecker;

// View → Check Spelling: on unless the user turned it off (kept in `settings`, may be null), and
// disabled with a tooltip saying why when no dictionary is installed (`spelling` null).
QAction *addSpellingAction(QMenu *menu, SpellChecker *spelling, CanvasEditor *editor,
                           QSettings *settings);

} // namespace buzz::ui
