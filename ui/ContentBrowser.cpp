#include "ui/ContentBrowser.h"

#include "ui/ContentDocument.h"
#include "ui/LinkOpener.h"

namespace buzz::ui {

ContentBrowser::ContentBrowser(QWidget *parent)
    : QTextBrowser(parent)
{
    setDocument(new ContentDocument(this));
    // Qt's default opens a clicked link inside the browser (a file:// link replaced the canvas
    // with the local file) or hands it to the desktop unasked.
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, &ContentBrowser::onAnchorClicked);
}

QVariant ContentBrowser::loadResource(int type, const QUrl &name)
{
    Q_UNUSED(name);
    return ContentDocument::refusedResource(type);
}

void ContentBrowser::onAnchorClicked(const QUrl &url)
{
    if (url.isRelative() && url.path().isEmpty() && url.hasFragment()) {
        scrollToAnchor(url.fragment());
        return;
    }
    LinkOpener::offer(this, url);
}

} // namespace buzz::ui
