#pragma once

#include <QTextBrowser>

namespace buzz::ui {

// A read-only view of text others wrote (the canvas, the editor's live preview): its document is
// a ContentDocument, so it never loads a file or fetches anything the text names, and its links
// never navigate it — a click goes through LinkOpener (confirm, then the desktop's browser, only
// http, https and mailto); a link to an anchor of the same text scrolls there.
class ContentBrowser : public QTextBrowser
{
    Q_OBJECT
public:
    explicit ContentBrowser(QWidget *parent = nullptr);

    // QTextBrowser's own loader (setSource, reload) is refused the same way as the document's.
    QVariant loadResource(int type, const QUrl &name) override;

private:
    void onAnchorClicked(const QUrl &url);
};

} // namespace buzz::ui
