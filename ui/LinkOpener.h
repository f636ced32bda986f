#pragma once

#include <QCoreApplication>
#include <QUrl>

class QMessageBox;
class QWidget;

namespace buzz::ui {

// What clicking a link in a canvas does. A canvas is text anyone in the channel wrote, so a link
// never replaces the canvas and never opens on its own: web (http, https) and mail (mailto)
// addresses open in the desktop's browser or mail program after the user confirmed the exact
// address (`openLinkDialog`: **Open in Browser** `openLinkButton`, **Cancel**
// `cancelLinkButton`); anything else — a local file, a relative name, javascript:, ftp: — is
// refused with a note (`linkRefusedDialog`, **Close** `closeLinkButton`). Both dialogs are
// window-modal and return at once (open()), so the event loop and tests keep running.
class LinkOpener
{
    Q_DECLARE_TR_FUNCTIONS(buzz::ui::LinkOpener)

public:
    static bool isOpenable(const QUrl &url);
    // The address as the dialog shows it: fully encoded (an international domain as punycode, so
    // a look-alike host cannot pass for another), elided in the middle past 300 characters.
    static QString shownAddress(const QUrl &url);
    // Asks about `url` (or refuses it) over `parent`'s window; returns the dialog it opened.
    static QMessageBox *offer(QWidget *parent, const QUrl &url);
};

} // namespace buzz::ui
