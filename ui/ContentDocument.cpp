#include "ui/ContentDocument.h"

#include <QImage>
#include <QPainter>

namespace buzz::ui {

namespace {

// A small outlined square where an image would be: the reader sees that something is not shown.
QImage placeholderImage()
{
    QImage image(16, 16, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setPen(QColor(128, 128, 128, 160));
    painter.drawRect(QRect(1, 1, 13, 13));
    return image;
}

} // namespace

ContentDocument::ContentDocument(QObject *parent)
    : QTextDocument(parent)
{ }

QVariant ContentDocument::refusedResource(int type)
{
    if (type == QTextDocument::ImageResource) {
        static const QImage placeholder = placeholderImage();
        return placeholder;
    }
    return QString(); // not null: a null answer lets QTextDocument read the file instead
}

void ContentDocument::refuseResourcesEverywhere()
{
    // The provider is not told the resource type; an image answer is what documents ask for
    // (a style sheet reads an image variant as empty text).
    QTextDocument::setDefaultResourceProvider(
        [](const QUrl &) { return refusedResource(QTextDocument::ImageResource); });
}

QVariant ContentDocument::loadResource(int type, const QUrl &name)
{
    Q_UNUSED(name);
    return refusedResource(type);
}

} // namespace buzz::ui
