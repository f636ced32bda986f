#include "ui/SpellingAction.h"

#include "ui/CanvasEditor.h"
#include "ui/SpellChecker.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QSettings>

namespace buzz::ui {

namespace {

constexpr char kSpellCheckKey[] = "editor/spellCheck";

// The strings keep the catalogue context they had as MainWindow's own (translations/*.ts).
QString translated(const char *text)
{
    return QCoreApplication::translate("buzz::ui::MainWindow", text);
}

} // namespace

QAction *addSpellingAction(QMenu *menu, SpellChecker *spelling, CanvasEditor *editor,
                           QSettings *settings)
{
    auto *action =
        menu->addAction(translated(QT_TRANSLATE_NOOP("buzz::ui::MainWindow", "Check &Spelling")));
    action->setObjectName(QStringLiteral("spellCheckAction"));
    action->setCheckable(true);
    if (!spelling) {
        action->setEnabled(false);
        action->setToolTip(translated(
            QT_TRANSLATE_NOOP("buzz::ui::MainWindow", "No Hunspell dictionary is installed")));
        return action;
    }
    editor->setSpellChecker(spelling);
    const bool on = !settings || settings->value(QLatin1String(kSpellCheckKey), true).toBool();
    spelling->setEnabled(on);
    action->setChecked(on);
    action->setToolTip(
        translated(QT_TRANSLATE_NOOP("buzz::ui::MainWindow", "Underline misspelled words (%1)"))
            .arg(spelling->language()));
    QObject::connect(action, &QAction::toggled, spelling, [spelling, settings](bool checked) {
        spelling->setEnabled(checked);
        if (settings)
            settings->setValue(QLatin1String(kSpellCheckKey), checked);
    });
    return action;
}

} // namespace buzz::ui
