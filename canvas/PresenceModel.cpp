#include "canvas/PresenceModel.h"

#include <QDateTime>

#include <algorithm>
#include <utility>

namespace buzz::canvas {

namespace {
const QString kCanvasStatusPrefix = QStringLiteral("canvas:");
const QString kEditingSuffix = QStringLiteral(":editing");
} // namespace

QString PresenceModel::statusFor(const QString &channel, bool editing)
{
    return kCanvasStatusPrefix + channel.toLower() + (editing ? kEditingSuffix : QString());
}

std::optional<PresenceModel::Status> PresenceModel::parseStatus(const QString &status)
{
    if (!status.startsWith(kCanvasStatusPrefix))
        return std::nullopt;
    Status parsed;
    QString rest = status.mid(kCanvasStatusPrefix.size());
    if (rest.endsWith(kEditingSuffix)) {
        parsed.editing = true;
        rest.chop(kEditingSuffix.size());
    }
    // A channel id is a UUID (docs/buzz-protocol.md §Channels): nothing with a separator in it.
    if (rest.isEmpty() || rest.size() > 64 || rest.contains(QLatin1Char(':')))
        return std::nullopt;
    parsed.channel = rest.toLower();
    return parsed;
}

PresenceModel::PresenceModel(QObject *parent)
    : QObject(parent)
    , m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_expiryTimer.setSingleShot(true);
    connect(&m_expiryTimer, &QTimer::timeout, this, &PresenceModel::expireNow);
}

void PresenceModel::setSelf(const QString &pubkey)
{
    m_self = pubkey.toLower();
    if (m_entries.remove(m_self) > 0) {
        m_order.removeAll(m_self);
        emit changed();
    }
}

bool PresenceModel::isShown(const Entry &entry, qint64 now) const
{
    return !entry.channel.isEmpty() && entry.expiresAtMs > now;
}

void PresenceModel::applyStatus(const QString &pubkeyIn, const QString &status, qint64 createdAt,
                                bool live)
{
    const QString pubkey = pubkeyIn.toLower();
    if (pubkey == m_self)
        return;
    const qint64 now = m_now();
    auto it = m_entries.find(pubkey);
    if (it != m_entries.end() && createdAt < it->createdAt)
        return; // an older status overtook by a newer one: the newer stands
    const auto parsed = parseStatus(status);
    if (!parsed) {
        // Offline, or not on any canvas: gone from every canvas at once.
        if (it != m_entries.end()) {
            m_entries.erase(it);
            m_order.removeAll(pubkey);
            emit changed();
        }
        return;
    }
    if (it == m_entries.end()) {
        it = m_entries.insert(pubkey, Entry {});
        m_order.append(pubkey);
    }
    // The relay keeps a status for the expiry after it received it, about when it was signed; a
    // relay's answer is as old as the status it reports (at most: clocks differ).
    const qint64 learnedAt = live ? now : std::min(now, createdAt * 1000);
    it->channel = parsed->channel;
    it->editing = parsed->editing;
    it->createdAt = createdAt;
    it->expiresAtMs = std::max(it->expiresAtMs, learnedAt + qint64(m_expiry.count()));
    if (it->expiresAtMs <= now)
        it->expiresAtMs = learnedAt + qint64(m_expiry.count());
    scheduleExpiry();
    emit changed();
}

void PresenceModel::applyTyping(const QString &pubkeyIn, const QString &channel)
{
    const QString pubkey = pubkeyIn.toLower();
    if (pubkey == m_self || channel.isEmpty())
        return;
    const qint64 now = m_now();
    auto it = m_entries.find(pubkey);
    if (it == m_entries.end()) {
        // Typing says the author has the canvas open, whatever its presence says so far.
        it = m_entries.insert(pubkey, Entry {});
        m_order.append(pubkey);
        it->channel = channel.toLower();
        it->editing = true;
        it->expiresAtMs = now + qint64(m_expiry.count());
    }
    it->typingChannel = channel.toLower();
    it->typingUntilMs = now + qint64(m_typingShownFor.count());
    scheduleExpiry();
    emit changed();
}

void PresenceModel::clear()
{
    if (m_entries.isEmpty())
        return;
    m_entries.clear();
    m_order.clear();
    m_expiryTimer.stop();
    emit changed();
}

QList<PresenceModel::Person> PresenceModel::peopleIn(const QString &channelIn) const
{
    const QString channel = channelIn.toLower();
    const qint64 now = m_now();
    QList<Person> people;
    for (const QString &pubkey : m_order) {
        const Entry &entry = m_entries[pubkey];
        const bool typing = entry.typingChannel == channel && entry.typingUntilMs > now;
        if (!typing && (!isShown(entry, now) || entry.channel != channel))
            continue;
        people.append(Person {pubkey, typing || entry.editing, typing});
    }
    return people;
}

QStringList PresenceModel::editorsIn(const QString &channel) const
{
    QStringList editors;
    for (const Person &person : peopleIn(channel)) {
        if (person.editing)
            editors.append(person.pubkey);
    }
    return editors;
}

void PresenceModel::expireNow()
{
    const qint64 now = m_now();
    bool any = false;
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it->typingUntilMs != 0 && it->typingUntilMs <= now) {
            it->typingUntilMs = 0;
            it->typingChannel.clear();
            any = true;
        }
        if (it->expiresAtMs <= now && it->typingUntilMs == 0) {
            m_order.removeAll(it.key());
            it = m_entries.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    scheduleExpiry();
    if (any)
        emit changed();
}

void PresenceModel::scheduleExpiry()
{
    qint64 next = 0;
    for (const Entry &entry : std::as_const(m_entries)) {
        for (qint64 at : {entry.expiresAtMs, entry.typingUntilMs}) {
            if (at != 0 && (next == 0 || at < next))
                next = at;
        }
    }
    if (next == 0) {
        m_expiryTimer.stop();
        return;
    }
    m_expiryTimer.start(int(std::clamp<qint64>(next - m_now() + 1, 0, 24 * 3600 * 1000)));
}

} // namespace buzz::canvas
