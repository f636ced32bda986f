#include "canvas/PresenceService.h"

#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/client/Signer.h"
#include "net/nostr/Event.h"
#include "net/nostr/Keys.h"
#include "net/nostr/Kinds.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <algorithm>

#include <qcoro/qcorotask.h>

Q_LOGGING_CATEGORY(lcPresence, "buzz.canvas.presence")

namespace buzz::canvas {

namespace {

const QString kOffline = QStringLiteral("offline");

// A typing event older than this is a replay, not someone typing now (typing is never stored, so
// only a relay that misbehaves sends one).
constexpr qint64 kTypingMaxAgeSecs = 60;

std::vector<std::string> toStd(const QStringList &list)
{
    std::vector<std::string> out;
    out.reserve(std::size_t(list.size()));
    for (const QString &item : list)
        out.push_back(item.toStdString());
    return out;
}

} // namespace

PresenceService::PresenceService(client::RelayConnection *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_socket(connection->socket())
    , m_model(new PresenceModel(this))
{
    m_model->setSelf(connection->publicKeyHex());
    connect(m_socket, &client::RelaySocket::eventReceived, this, &PresenceService::onEvent);
    connect(m_socket, &client::RelaySocket::stateChanged, this, &PresenceService::onSocketState);
    connect(m_socket, &client::RelaySocket::eventAnswered, this,
            [this](const QString &id, bool accepted, const QString &message) {
                const auto sent = m_sent.constFind(id);
                if (sent == m_sent.constEnd())
                    return;
                if (!accepted)
                    qCInfo(lcPresence) << "relay refused presence" << *sent << ":" << message;
                emit published(m_sent.take(id), accepted);
            });
    if (client::Signer *signer = connection->signer()) {
        connect(signer, &client::Signer::keyAboutToChange, this,
                &PresenceService::onKeyAboutToChange);
        connect(signer, &client::Signer::keyChanged, this, &PresenceService::onKeyChanged);
    }
    m_heartbeat.setInterval(kHeartbeatInterval);
    connect(&m_heartbeat, &QTimer::timeout, this, &PresenceService::publishCurrent);
    m_answer.setSingleShot(true);
    m_answer.setInterval(kAnswerDelay);
    connect(&m_answer, &QTimer::timeout, this, &PresenceService::publishCurrent);
}

PresenceService::~PresenceService()
{
    goOffline();
    for (QString *id : {&m_globalWatch, &m_presenceQuery, &m_typingWatch})
        closeSubscription(*id);
}

void PresenceService::setHeartbeatInterval(std::chrono::milliseconds interval)
{
    m_heartbeat.setInterval(interval);
}

void PresenceService::closeSubscription(QString &id)
{
    if (!id.isEmpty() && m_socket)
        m_socket->unsubscribe(id);
    id.clear();
}

void PresenceService::setChannel(const QString &channelIn)
{
    const QString channel = channelIn.toLower();
    if (channel == m_channel || m_offline)
        return;
    m_channel = channel;
    m_editing = false;
    m_members.clear();
    closeSubscription(m_typingWatch);
    if (channel.isEmpty()) {
        m_heartbeat.stop();
        if (const auto key = m_connection->secretKey(); key && !m_lastStatus.isEmpty())
            publishStatus(kOffline, *key);
        return;
    }
    if (m_globalWatch.isEmpty()) {
        nostr::Filter everyone;
        everyone.kinds = std::vector<int> {nostr::kinds::kPresence};
        m_globalWatch = m_socket->subscribe({everyone}, QStringLiteral("presence_watch"));
    }
    fetchRelayKey();
    watchTyping();
    fetchMembers(channel);
    publishCurrent();
    m_heartbeat.start();
}

void PresenceService::setEditing(bool editing)
{
    if (editing == m_editing)
        return;
    m_editing = editing;
    publishCurrent();
}

void PresenceService::typed()
{
    if (m_offline || m_channel.isEmpty())
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_lastTypingMs != 0 && now - m_lastTypingMs < m_typingInterval.count())
        return;
    const auto key = m_connection->secretKey();
    if (!key)
        return;
    const nostr::Event event =
        key->signedEvent(nostr::kinds::kTyping, now / 1000, {{"h", m_channel.toStdString()}});
    if (m_socket && m_socket->sendEvent(event, QStringLiteral("typing")))
        m_lastTypingMs = now;
}

void PresenceService::goOffline()
{
    if (m_offline)
        return;
    m_heartbeat.stop();
    if (const auto key = m_connection->secretKey();
        key && !m_lastStatus.isEmpty() && m_lastStatus != kOffline)
        publishStatus(kOffline, *key);
    m_offline = true;
}

void PresenceService::publishCurrent()
{
    if (m_offline || m_channel.isEmpty())
        return;
    if (const auto key = m_connection->secretKey())
        publishStatus(PresenceModel::statusFor(m_channel, m_editing), *key);
}

void PresenceService::publishStatus(const QString &status, const nostr::SecretKey &key)
{
    // The relay keeps the newest created_at and ignores a status that is not newer
    // (docs/buzz-protocol.md §Presence and typing): two changes within a second must still
    // both count, the later one last.
    m_lastStamp = std::max(QDateTime::currentSecsSinceEpoch(), m_lastStamp + 1);
    const nostr::Event event =
        key.signedEvent(nostr::kinds::kPresence, m_lastStamp, {}, status.toStdString());
    if (!m_socket || !m_socket->sendEvent(event, QStringLiteral("presence")))
        return; // sent again once connected (onSocketState)
    m_sent.insert(QString::fromStdString(event.id), status);
    m_lastStatus = status;
}

void PresenceService::onSocketState()
{
    if (m_socket && m_socket->state() == client::RelaySocket::State::Connected)
        publishCurrent(); // a new connection, maybe a new relay process: say it again
}

void PresenceService::onKeyAboutToChange()
{
    // Signing out (another identity replaces this one): the old one leaves while the connection
    // is still authenticated as it; the socket reconnects with the new key right after.
    if (const auto key = m_connection->secretKey();
        key && !m_offline && !m_lastStatus.isEmpty() && m_lastStatus != kOffline)
        publishStatus(kOffline, *key);
}

void PresenceService::onKeyChanged()
{
    m_lastStatus.clear();
    m_model->clear();
    m_model->setSelf(m_connection->publicKeyHex());
    // The new identity is announced once its connection is up (onSocketState).
}

void PresenceService::fetchRelayKey()
{
    if (m_relayKeyAsked)
        return;
    m_relayKeyAsked = true;
    QCoro::connect(
        m_connection->bridge()->relayPublicKey(client::options(QStringLiteral("relay_info"))), this,
        [this](const client::Result<QString> &key) {
            if (!key || key->isEmpty()) {
                qCInfo(lcPresence) << "the relay names no key of its own: who is "
                                      "here is learned from live presence only";
                return;
            }
            m_relayKey = *key;
            m_socket->setRelayPublicKey(m_relayKey);
            m_asked.clear(); // ask again: answers before the key were not used
            askAbout(m_members + m_model->knownPubkeys());
        });
}

void PresenceService::fetchMembers(const QString &channel)
{
    nostr::Filter members;
    members.kinds = std::vector<int> {nostr::kinds::kGroupMembers};
    members.tags['d'] = {channel.toStdString()};
    members.limit = 1;
    QCoro::connect(
        m_connection->bridge()->query(client::filters(members),
                                      client::options(QStringLiteral("presence_members"))),
        this, [this, channel](const client::Result<client::QueryResponse> &answer) {
            if (channel != m_channel)
                return; // switched meanwhile
            if (answer) {
                for (const nostr::Event &event : answer->events) {
                    for (const std::string &pubkey : event.tagValues("p"))
                        m_members.append(QString::fromStdString(pubkey));
                }
            }
            askAbout(m_members + m_model->knownPubkeys());
        });
}

void PresenceService::askAbout(const QStringList &pubkeys)
{
    QStringList authors;
    const QString self = m_connection->publicKeyHex();
    for (const QString &pubkey : pubkeys) {
        const QString key = pubkey.toLower();
        if (key != self && key.size() == 64 && !authors.contains(key))
            authors.append(key);
    }
    authors.sort();
    authors = authors.mid(0, kMaxAskedAuthors);
    if (authors.isEmpty() || (authors == m_asked && !m_presenceQuery.isEmpty()))
        return;
    closeSubscription(m_presenceQuery);
    m_asked = authors;
    nostr::Filter query;
    query.kinds = std::vector<int> {nostr::kinds::kPresence};
    query.authors = toStd(authors);
    m_presenceQuery = m_socket->subscribe({query}, QStringLiteral("presence_query"));
}

void PresenceService::watchTyping()
{
    nostr::Filter typing;
    typing.kinds = std::vector<int> {nostr::kinds::kTyping};
    typing.tags['h'] = {m_channel.toStdString()};
    m_typingWatch = m_socket->subscribe({typing}, QStringLiteral("typing_watch"));
}

void PresenceService::onEvent(const QString &subscriptionId, const nostr::Event &event)
{
    if (subscriptionId == m_typingWatch) {
        const std::string *channel = event.tagValue("h");
        if (event.kind != nostr::kinds::kTyping || !channel
            || QString::fromStdString(*channel) != m_channel
            || event.createdAt < QDateTime::currentSecsSinceEpoch() - kTypingMaxAgeSecs)
            return;
        m_model->applyTyping(QString::fromStdString(event.pubkey), m_channel);
        return;
    }
    if (subscriptionId != m_globalWatch && subscriptionId != m_presenceQuery)
        return;
    if (event.kind != nostr::kinds::kPresence)
        return;
    const QString author = QString::fromStdString(event.pubkey);
    const QString content = QString::fromStdString(event.content);
    if (!m_relayKey.isEmpty() && author == m_relayKey) {
        // Only the presence query's answers are the relay's word about someone (the socket
        // checked the signature is the relay's and that it is about an author asked for).
        if (subscriptionId != m_presenceQuery)
            return;
        const std::string *subject = event.tagValue("p");
        if (subject)
            m_model->applyStatus(QString::fromStdString(*subject), content, event.createdAt, false);
        return;
    }
    const auto isHere = [this, &author] {
        const auto people = m_model->peopleIn(m_channel);
        return std::any_of(people.begin(), people.end(),
                           [&author](const auto &person) { return person.pubkey == author; });
    };
    const bool wasHere = isHere();
    m_model->applyStatus(author, content, event.createdAt, true);
    if (!wasHere && !m_channel.isEmpty() && isHere() && !m_answer.isActive())
        m_answer.start();
}

} // namespace buzz::canvas
