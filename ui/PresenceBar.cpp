#include "ui/PresenceBar.h"

#include "canvas/CanvasSession.h"
#include "canvas/PresenceService.h"
#include "canvas/ProfileCache.h"
#include "ui/CanvasEditor.h"
#include "ui/CanvasPane.h"
#include "ui/UiFormat.h"

#include <QColor>
#include <QCryptographicHash>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QVBoxLayout>

namespace buzz::ui {

namespace {
constexpr int kAvatarSize = 24;
constexpr int kMaxAvatars = 8; // the rest are named in the sentence only
} // namespace

PresenceBar::PresenceBar(const UiServices &services, CanvasPane *pane)
    : QWidget(pane)
    , m_services(services)
    , m_row(new QWidget(this))
    , m_avatars(new QHBoxLayout)
    , m_summary(new QLabel(m_row))
    , m_warning(new QLabel(this))
{
    setObjectName(QStringLiteral("presenceBar"));
    setAccessibleName(tr("Who is here"));
    m_summary->setObjectName(QStringLiteral("presenceSummaryLabel"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_warning->setObjectName(QStringLiteral("coEditingWarning"));
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setWordWrap(true);
    m_warning->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_warning->setAccessibleDescription(tr("Someone else is editing this canvas"));
    QPalette warningPalette = m_warning->palette();
    warningPalette.setColor(QPalette::WindowText, QColor(0xa0, 0x5a, 0x00));
    m_warning->setPalette(warningPalette);

    m_avatars->setContentsMargins(0, 0, 0, 0);
    m_avatars->setSpacing(2);
    auto *row = new QHBoxLayout(m_row);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(6);
    row->addLayout(m_avatars);
    row->addWidget(m_summary, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_row);
    layout->addWidget(m_warning);

    if (m_services.presence) {
        connect(m_services.presence->model(), &canvas::PresenceModel::changed, this,
                &PresenceBar::refresh);
    }
    if (m_services.profiles) {
        connect(m_services.profiles, &canvas::ProfileCache::profilesUpdated, this,
                &PresenceBar::refresh);
    }
    connect(pane, &CanvasPane::sessionOpened, this, &PresenceBar::follow);
    connect(pane->editor(), &CanvasEditor::textEdited, this, [this] {
        if (m_session && m_session->isEditing() && m_services.presence)
            m_services.presence->typed();
    });
    refresh();
}

void PresenceBar::follow(canvas::CanvasSession *session)
{
    m_session = session;
    if (m_services.presence)
        m_services.presence->setChannel(session ? session->channel() : QString());
    if (session) {
        connect(session, &canvas::CanvasSession::editingChanged, this, [this](bool editing) {
            if (m_services.presence)
                m_services.presence->setEditing(editing);
            refresh();
        });
    }
    refresh();
}

QString PresenceBar::nameOf(const QString &pubkey) const
{
    return UiFormat::personName(m_services.profiles, pubkey);
}

QString PresenceBar::initials(const QString &name)
{
    // A profile-less person is named by a short npub: its first characters after "npub1".
    if (name.startsWith(QLatin1String("npub1")))
        return name.mid(5, 2).toUpper();
    QString letters;
    for (const QString &word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QChar first = word.at(0);
        if (first.isLetterOrNumber())
            letters += first.toUpper();
        if (letters.size() == 2)
            break;
    }
    return letters.isEmpty() ? name.left(1).toUpper() : letters;
}

QLabel *PresenceBar::avatarFor(const QString &pubkey, bool editing)
{
    const QString name = nameOf(pubkey);
    auto *avatar = new QLabel(initials(name), m_row);
    avatar->setObjectName(QStringLiteral("presenceAvatar_") + pubkey);
    avatar->setAccessibleName(editing ? tr("%1, editing").arg(name) : name);
    avatar->setToolTip(UiFormat::personToolTip(m_services.profiles, pubkey)
                       + (editing ? QLatin1Char('\n') + tr("Editing now") : QString()));
    avatar->setAlignment(Qt::AlignCenter);
    avatar->setFixedSize(kAvatarSize, kAvatarSize);
    // A colour of its own per person, the same in every window and every run.
    const QByteArray digest =
        QCryptographicHash::hash(pubkey.toLatin1(), QCryptographicHash::Sha256);
    const QColor colour = QColor::fromHsv(int(quint8(digest.at(0))) * 360 / 256, 150, 170);
    avatar->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; "
                       "border-radius: %2px; border: 2px solid %3; }")
            .arg(colour.name())
            .arg(kAvatarSize / 2)
            .arg(editing ? QStringLiteral("#e08a00") : colour.name()));
    return avatar;
}

void PresenceBar::refresh()
{
    while (QLayoutItem *item = m_avatars->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QString channel = m_session ? m_session->channel() : QString();
    const QList<canvas::PresenceModel::Person> people = m_services.presence && !channel.isEmpty()
        ? m_services.presence->model()->peopleIn(channel)
        : QList<canvas::PresenceModel::Person> {};
    QStringList pubkeys;
    QStringList named;
    QStringList editors;
    for (const auto &person : people) {
        pubkeys.append(person.pubkey);
        const QString name = nameOf(person.pubkey);
        named.append(person.typing        ? tr("%1 (typing…)").arg(name)
                         : person.editing ? tr("%1 (editing)").arg(name)
                                          : name);
        if (person.editing)
            editors.append(name);
        if (m_avatars->count() < kMaxAvatars)
            m_avatars->addWidget(avatarFor(person.pubkey, person.editing));
    }
    if (m_services.profiles && !pubkeys.isEmpty())
        m_services.profiles->request(pubkeys); // names arrive later: profilesUpdated
    m_summary->setText(named.isEmpty() ? QString()
                                       : tr("Also here: %1").arg(named.join(QStringLiteral(", "))));
    m_summary->setAccessibleName(m_summary->text());
    const bool warn = m_session && m_session->isEditing() && !editors.isEmpty();
    QString warning;
    if (warn) {
        warning = editors.size() == 1
            ? tr("%1 is editing too: if you both save, the later save is offered as a merge.")
            : tr("%1 are editing too: if you all save, the later saves are offered as a merge.");
        warning = warning.arg(editors.join(QStringLiteral(", ")));
    }
    m_warning->setText(warning);
    m_warning->setAccessibleName(m_warning->text());
    m_warning->setVisible(warn);
    setVisible(!people.isEmpty());
}

QString PresenceBar::summary() const
{
    return m_summary->text();
}

QString PresenceBar::warning() const
{
    return m_warning->isVisibleTo(const_cast<PresenceBar *>(this)) ? m_warning->text() : QString();
}

} // namespace buzz::ui
