#include "ui/Accessibility.h"

#include "ui/CanvasViewAccessible.h"
#include "ui/NoticeBanner.h"

#include <QAbstractItemView>
#include <QAccessibleWidget>
#include <QItemSelectionModel>

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

} // namespace buzz::ui
