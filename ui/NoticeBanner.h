#pragma once

#include <QColor>
#include <QFrame>
#include <QString>

class QLabel;
class QHBoxLayout;
class QPushButton;
class QToolButton;

namespace buzz::ui {

// An inline message strip above the canvas, in the spirit of KMessageWidget: a sentence, up to a
// few action buttons and a close button. Used for save outcomes, live changes, drafts and errors,
// so nothing important ever hides in a modal box or a transient status-bar message.
class NoticeBanner : public QFrame
{
    Q_OBJECT
public:
    enum class Tone { Info, Positive, Warning, Error };

    // `name` is the objectName; buttons get `name + Suffix` (e.g. liveChangeBanner →
    // liveChangeBannerReloadButton) so tests and screen readers find them.
    explicit NoticeBanner(const QString &name, QWidget *parent = nullptr);

    // Replaces the text and tone and shows the banner. `details` becomes the tooltip (e.g. the VPN
    // hint behind "Can't reach the relay.").
    void showMessage(const QString &text, Tone tone = Tone::Info, const QString &details = {});
    QString text() const;
    Tone tone() const { return m_tone; }

    // Adds an action button (hidden until setActionVisible or shown by default). `suffix` names it.
    QPushButton *addAction(const QString &suffix, const QString &label);
    QPushButton *action(const QString &suffix) const;
    void setActionVisible(const QString &suffix, bool visible);
    void setClosable(bool closable);
    // Which notice this is, for people ("save notice"): its buttons' accessible names say it
    // ("Close save notice", "Retry (save notice)"), so no two controls of a window share a name
    // and AT-SPI tools can address each one. Applies to actions added before and after.
    void setPurpose(const QString &purpose);

signals:
    void closed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void applyTone();
    QColor accent() const;
    void nameButton(QPushButton *button, const QString &label) const;

    Tone m_tone = Tone::Info;
    QLabel *m_icon;
    QLabel *m_text;
    QHBoxLayout *m_actions;
    QToolButton *m_close;
    QString m_purpose;
};

} // namespace buzz::ui
