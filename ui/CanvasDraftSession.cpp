#include "ui/CanvasDraftSession.h"

#include <QTimer>

namespace buzz::ui {

namespace {
// Long enough that typing costs no disk writes, short enough that a crash loses one second.
constexpr int kAutosaveDelayMs = 1000;
} // namespace

CanvasDraftSession::CanvasDraftSession(canvas::DraftStore *store, QString relayKey,
                                       QString community, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_relayKey(std::move(relayKey))
    , m_community(std::move(community))
    , m_debounce(new QTimer(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kAutosaveDelayMs);
    connect(m_debounce, &QTimer::timeout, this, &CanvasDraftSession::autosaveDue);
    if (m_store)
        connect(m_store, &canvas::DraftStore::draftStored, this, &CanvasDraftSession::draftStored);
}

void CanvasDraftSession::setChannel(const QString &channel)
{
    m_channel = channel;
    m_filesWrittenThisEdit.clear();
}

canvas::DraftKey CanvasDraftSession::keyFor(const std::optional<canvas::CanvasRevision> &base) const
{
    canvas::DraftKey key;
    key.relay = m_relayKey;
    key.communityHost = m_community;
    key.channel = m_channel;
    key.baseRevision = base ? base->eventId : QString::fromLatin1(canvas::kExpectedNone);
    return key;
}

void CanvasDraftSession::beginEdit()
{
    m_filesWrittenThisEdit.clear();
}

void CanvasDraftSession::textEdited()
{
    m_debounce->start();
}

void CanvasDraftSession::stopAutosave()
{
    m_debounce->stop();
}

bool CanvasDraftSession::autosavePending() const
{
    return m_debounce->isActive();
}

void CanvasDraftSession::store(const std::optional<canvas::CanvasRevision> &base,
                               const QString &text)
{
    if (!m_store)
        return;
    const canvas::DraftKey key = keyFor(base);
    m_filesWrittenThisEdit.insert(key.fileName());
    m_store->store(key, text);
}

void CanvasDraftSession::flushToDisk()
{
    if (m_store)
        m_store->flush();
}

void CanvasDraftSession::discard(const std::optional<canvas::CanvasRevision> &base)
{
    discard(keyFor(base));
}

void CanvasDraftSession::discard(const canvas::DraftKey &key)
{
    if (m_store)
        m_store->discard(key);
}

void CanvasDraftSession::discardAfterVerifiedSave(const std::optional<canvas::CanvasRevision> &base)
{
    if (!m_store)
        return;
    m_store->discard(keyFor(base));
    for (const canvas::Draft &draft :
         m_store->draftsForChannel(m_relayKey, m_community, m_channel)) {
        if (m_filesWrittenThisEdit.contains(draft.key.fileName()))
            m_store->discard(draft.key);
    }
}

std::optional<canvas::Draft>
CanvasDraftSession::draftToOffer(const std::optional<canvas::CanvasRevision> &head)
{
    if (!m_store)
        return std::nullopt;
    for (const canvas::Draft &draft :
         m_store->draftsForChannel(m_relayKey, m_community, m_channel)) {
        if (head && draft.content == head->content) {
            m_store->discard(draft.key); // already saved by someone
            continue;
        }
        return draft;
    }
    return std::nullopt;
}

} // namespace buzz::ui
