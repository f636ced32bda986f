#include "ui/Accessibility.h"

#include "ui/CanvasViewAccessible.h"
#include "ui/NoticeBanner.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAccessibleWidget>
#include <QCoreApplication>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>

namespace buzz::ui {

namespace {

QAccessibleInterface *noticeFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String(NoticeBanner::staticMetaObject.className()) && object
        && object->isWidgetType())
        return new QAccessibleWidget(static_cast<QWidget *>(object), QAccessible::AlertMessage);
    return nullptr;
}

} // namespace

void installAccessibleFactories()
{
    static const bool installed = [] {
        QAccessible::installFactory(&CanvasViewAccessible::factory);
        QAccessible::installFactory(&noticeFactory);
        return true;
    }();
    Q_UNUSED(installed);
}

void makeSelectionCurrent(QAbstractItemView *view)
{
    QObject::connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, view,
                     [view](const QItemSelection &selected) {
                         const QModelIndexList indexes = selected.indexes();
                         if (indexes.isEmpty() || indexes.first() == view->currentIndex())
                             return;
                         view->selectionModel()->setCurrentIndex(indexes.first(),
                                                                 QItemSelectionModel::NoUpdate);
                     });
}

namespace {

QString accessibilityText(const char *text)
{
    return QCoreApplication::translate("buzz::ui::Accessibility", text);
}

void nameIfUnnamed(QWidget *control, const QString &name)
{
    if (control && control->accessibleName().isEmpty())
        control->setAccessibleName(name);
}

} // namespace

void nameStandardControls(QWidget *root)
{
    const auto docks = root->findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks) {
        const QString title = dock->windowTitle().remove(QLatin1Char('&'));
        if (auto *close =
                dock->findChild<QAbstractButton *>(QStringLiteral("qt_dockwidget_closebutton")))
            close->setAccessibleName(
                accessibilityText(QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "Close %1"))
                    .arg(title));
        if (auto *detach =
                dock->findChild<QAbstractButton *>(QStringLiteral("qt_dockwidget_floatbutton")))
            detach->setAccessibleName(
                accessibilityText(QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "Undock %1"))
                    .arg(title));
    }
    // QLineEdit's clear button (setClearButtonEnabled).
    const auto edits = root->findChildren<QLineEdit *>();
    for (QLineEdit *edit : edits) {
        const auto buttons =
            edit->findChildren<QToolButton *>(QString(), Qt::FindDirectChildrenOnly);
        for (QToolButton *button : buttons)
            nameIfUnnamed(
                button,
                accessibilityText(QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "Clear %1"))
                    .arg(edit->accessibleName()));
    }
    const auto toolbars = root->findChildren<QToolBar *>();
    for (QToolBar *toolbar : toolbars)
        nameIfUnnamed(toolbar->findChild<QToolButton *>(QStringLiteral("qt_toolbar_ext_button")),
                      accessibilityText(
                          QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "More %1 toolbar actions"))
                          .arg(toolbar->windowTitle()));
    nameIfUnnamed(root->findChild<QToolButton *>(QStringLiteral("qt_menubar_ext_button")),
                  accessibilityText(QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "More menus")));
    // The corner button of a table selects all of it.
    const auto tables = root->findChildren<QTableView *>();
    for (QTableView *table : tables) {
        const auto corners =
            table->findChildren<QAbstractButton *>(QString(), Qt::FindDirectChildrenOnly);
        for (QAbstractButton *corner : corners)
            nameIfUnnamed(
                corner,
                accessibilityText(QT_TRANSLATE_NOOP("buzz::ui::Accessibility", "Select all of %1"))
                    .arg(table->accessibleName()));
    }
}

} // namespace buzz::ui
