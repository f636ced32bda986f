#include "ui/NoticeBanner.h"

#include "ui/Accessibility.h"
#include "ui/UiFormat.h"

#include <QAccessible>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace buzz::ui {

NoticeBanner::NoticeBanner(const QString &name, QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_actions(new QHBoxLayout)
    , m_close(new QToolButton(this))
{
    installAccessibleFactories(); // before any event resolves (and caches) this one's interface
    setObjectName(name);
    m_icon->setObjectName(name + QStringLiteral("Icon"));
    m_text->setObjectName(name + QStringLiteral("Text"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setFocusPolicy(Qt::StrongFocus); // focusable, like the desktop's polite live region
    m_close->setObjectName(name + QStringLiteral("CloseButton"));
    m_close->setAccessibleName(tr("Close message"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(
        UiFormat::withShortcut(tr("Close this message"), QKeySequence(Qt::Key_Escape)));
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    m_actions->setSpacing(6);
    layout->addLayout(m_actions);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    applyTone();
    hide();
}

void NoticeBanner::showMessage(const QString &text, Tone tone, const QString &details)
{
    m_tone = tone;
    m_text->setText(text);
    m_text->setToolTip(details);
    setToolTip(details);
    // An alert (Accessibility.cpp) named by what it says, so a screen reader speaks the message
    // itself, and announced as it appears, also when it was already visible with other words.
    setAccessibleName(text);
    setAccessibleDescription(details);
    applyTone();
    show();
    QAccessibleEvent alert(this, QAccessible::Alert);
    QAccessible::updateAccessibility(&alert);
}

QString NoticeBanner::text() const
{
    return m_text->text();
}

QPushButton *NoticeBanner::addAction(const QString &suffix, const QString &label)
{
    auto *button = new QPushButton(label, this);
    button->setObjectName(objectName() + suffix + QStringLiteral("Button"));
    nameButton(button, label);
    m_actions->addWidget(button);
    return button;
}

QPushButton *NoticeBanner::action(const QString &suffix) const
{
    return findChild<QPushButton *>(objectName() + suffix + QStringLiteral("Button"));
}

void NoticeBanner::setActionVisible(const QString &suffix, bool visible)
{
    if (auto *button = action(suffix))
        button->setVisible(visible);
}

void NoticeBanner::nameButton(QPushButton *button, const QString &label) const
{
    const QString plain = QString(label).remove(QLatin1Char('&'));
    button->setAccessibleName(m_purpose.isEmpty()
                                  ? plain
                                  : tr("%1 (%2)", "a notice's button: its label, then which notice")
                                        .arg(plain, m_purpose));
}

void NoticeBanner::setPurpose(const QString &purpose)
{
    m_purpose = purpose;
    m_close->setAccessibleName(
        tr("Close %1", "closes a notice; %1 says which, e.g. 'save notice'").arg(purpose));
    const auto buttons = findChildren<QPushButton *>(QString(), Qt::FindDirectChildrenOnly);
    for (QPushButton *button : buttons)
        nameButton(button, button->text());
}

void NoticeBanner::setClosable(bool closable)
{
    m_close->setVisible(closable);
}

QColor NoticeBanner::accent() const
{
    switch (m_tone) {
    case Tone::Info:
        return QColor(61, 174, 233); // Breeze blue
    case Tone::Positive:
        return QColor(39, 174, 96);
    case Tone::Warning:
        return QColor(246, 116, 0);
    case Tone::Error:
        return QColor(218, 68, 83);
    }
    return QColor(61, 174, 233);
}

void NoticeBanner::paintEvent(QPaintEvent *)
{
    // A soft tint of the accent over the window colour, so dark themes stay readable.
    const QColor accentColor = accent();
    const QColor base = palette().color(QPalette::Window);
    const QColor tint = QColor::fromRgbF(base.redF() * 0.82 + accentColor.redF() * 0.18,
                                         base.greenF() * 0.82 + accentColor.greenF() * 0.18,
                                         base.blueF() * 0.82 + accentColor.blueF() * 0.18);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(accentColor, 1));
    painter.setBrush(tint);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

void NoticeBanner::applyTone()
{
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    QString iconName = m_tone == Tone::Positive ? tr("Success") : tr("Information");
    if (m_tone == Tone::Warning) {
        icon = QStyle::SP_MessageBoxWarning;
        iconName = tr("Warning");
    } else if (m_tone == Tone::Error) {
        icon = QStyle::SP_MessageBoxCritical;
        iconName = tr("Error");
    }
    m_icon->setAccessibleName(iconName); // the tone, for those who cannot see the colour
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    update();
}

} // namespace buzz::ui
