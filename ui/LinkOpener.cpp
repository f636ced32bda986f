#include "ui/LinkOpener.h"

#include <QDesktopServices>
#include <QMessageBox>
#include <QPushButton>

namespace buzz::ui {

namespace {

constexpr int kShownAddressMax = 300;

} // namespace

bool LinkOpener::isOpenable(const QUrl &url)
{
    if (!url.isValid())
        return false;
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("mailto"))
        return !url.path().isEmpty();
    return (scheme == QLatin1String("http") || scheme == QLatin1String("https"))
        && !url.host().isEmpty();
}

QString LinkOpener::shownAddress(const QUrl &url)
{
    QString text = url.isValid() ? url.toString(QUrl::FullyEncoded) : url.toString();
    if (text.size() > kShownAddressMax) {
        const int half = kShownAddressMax / 2;
        text = text.left(half) + QChar(0x2026) + text.right(half);
    }
    return text;
}

QMessageBox *LinkOpener::offer(QWidget *parent, const QUrl &url)
{
    auto *box = new QMessageBox(parent ? parent->window() : nullptr);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::PlainText); // the address is someone else's text
    const QString address = shownAddress(url);
    if (address.size() < url.toString(QUrl::FullyEncoded).size())
        box->setDetailedText(url.toString(QUrl::FullyEncoded));
    if (isOpenable(url)) {
        const bool mail = url.scheme().compare(QLatin1String("mailto"), Qt::CaseInsensitive) == 0;
        box->setObjectName(QStringLiteral("openLinkDialog"));
        box->setAccessibleName(tr("Open link"));
        box->setWindowTitle(tr("Open Link"));
        box->setIcon(QMessageBox::Question);
        box->setText((mail ? tr("Write an e-mail to this address with your mail program?")
                           : tr("Open this link in your browser?"))
                     + QStringLiteral("\n\n") + address);
        QPushButton *open = box->addButton(mail ? tr("&Write E-mail") : tr("&Open in Browser"),
                                           QMessageBox::AcceptRole);
        open->setObjectName(QStringLiteral("openLinkButton"));
        open->setAccessibleName(mail ? tr("Write an e-mail") : tr("Open the link in your browser"));
        QPushButton *cancel = box->addButton(QMessageBox::Cancel);
        cancel->setObjectName(QStringLiteral("cancelLinkButton"));
        cancel->setAccessibleName(tr("Do not open the link"));
        box->setDefaultButton(cancel); // Enter alone never opens someone else's link
        QObject::connect(open, &QPushButton::clicked, box,
                         [url] { QDesktopServices::openUrl(url); });
    } else {
        box->setObjectName(QStringLiteral("linkRefusedDialog"));
        box->setAccessibleName(tr("Link not opened"));
        box->setWindowTitle(tr("Link Not Opened"));
        box->setIcon(QMessageBox::Information);
        box->setText(tr("Buzz Canvas opens only web (http, https) and e-mail (mailto) links from "
                        "a canvas. This link was not opened:")
                     + QStringLiteral("\n\n") + address);
        QPushButton *close = box->addButton(QMessageBox::Close);
        close->setObjectName(QStringLiteral("closeLinkButton"));
        close->setAccessibleName(tr("Close"));
    }
    box->open();
    return box;
}

} // namespace buzz::ui
