#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <chrono>
#include <functional>
#include <optional>

namespace buzz::canvas {

// Who else has a canvas open and who is editing it, from verified presence (kind 20001) and
// typing (kind 20002) events (docs/buzz-protocol.md §Presence and typing). No I/O: the
// PresenceService feeds it, widgets show it, tests drive it with their own clock.
//
// The app's presence status names the canvas (statusFor): "canvas:<channel>" while reading it,
// "canvas:<channel>:editing" while its editor is open. Any other status ("online" from another
// Buzz client) is somewhere else, "offline" is gone. A status is kept for `expiry` after it was
// learned, as the relay keeps it (90 s after it received it), unless a newer one replaces it: a
// client that vanished without "offline" disappears when the relay forgets it too. Typing shows
// for typingShownFor after the last typing event.
class PresenceModel : public QObject
{
    Q_OBJECT
public:
    // The relay's lifetime of a status (relay/README.md "Limits").
    static constexpr std::chrono::milliseconds kDefaultExpiry {90000};
    // Typing events come at most every PresenceService::kTypingInterval while someone types.
    static constexpr std::chrono::milliseconds kDefaultTypingShownFor {8000};

    struct Person
    {
        QString pubkey;
        bool editing = false; // the editor is open (status) or typing was seen lately
        bool typing = false; // a typing event within typingShownFor
    };

    struct Status
    {
        QString channel;
        bool editing = false;
    };
    static QString statusFor(const QString &channel, bool editing);
    // nullopt: not on a canvas ("offline", another client's status, malformed).
    static std::optional<Status> parseStatus(const QString &status);

    explicit PresenceModel(QObject *parent = nullptr);

    // Milliseconds on a clock that never steps back (tests move it by hand).
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }
    void setExpiry(std::chrono::milliseconds expiry) { m_expiry = expiry; }
    std::chrono::milliseconds expiry() const { return m_expiry; }
    void setTypingShownFor(std::chrono::milliseconds shownFor) { m_typingShownFor = shownFor; }
    // The signed-in identity: never listed (its own events come back through the relay).
    void setSelf(const QString &pubkey);

    // A status `pubkey` set at `createdAt` (unix seconds, its own clock). `live`: its own event
    // arrived just now; else the relay's answer about it, learned at most as long ago as it is
    // old. An older status than the one kept changes nothing (events overtake each other).
    void applyStatus(const QString &pubkey, const QString &status, qint64 createdAt, bool live);
    // `pubkey` typed in `channel` just now (a verified 20002 scoped by that channel).
    void applyTyping(const QString &pubkey, const QString &channel);
    void clear(); // a new relay or identity: nothing known holds any more

    // Others with `channel` open, in the order they arrived; editors first is the widget's call.
    QList<Person> peopleIn(const QString &channel) const;
    QStringList editorsIn(const QString &channel) const; // pubkeys, editing or typing
    // Everyone with a live status (the service asks the relay about them again after a gap).
    QStringList knownPubkeys() const { return m_order; }

    // Drops what expired by now (also done by the model's own timer); public for tests.
    void expireNow();

signals:
    void changed();

private:
    struct Entry
    {
        QString channel;
        bool editing = false;
        qint64 createdAt = 0; // the status event's own created_at (s)
        qint64 expiresAtMs = 0;
        qint64 typingUntilMs = 0;
        QString typingChannel;
    };
    bool isShown(const Entry &entry, qint64 now) const;
    void scheduleExpiry();

    std::function<qint64()> m_now;
    std::chrono::milliseconds m_expiry = kDefaultExpiry;
    std::chrono::milliseconds m_typingShownFor = kDefaultTypingShownFor;
    QString m_self;
    QHash<QString, Entry> m_entries;
    QStringList m_order; // pubkeys in arrival order
    QTimer m_expiryTimer;
};

} // namespace buzz::canvas
