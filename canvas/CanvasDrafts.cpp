#include "canvas/CanvasDrafts.h"

#include <algorithm>

namespace buzz::canvas {

CanvasDrafts::CanvasDrafts(DraftScope scope, QString channel, QObject *parent)
    : QObject(parent)
    , m_scope(std::move(scope))
    , m_channel(std::move(channel))
{
    // Precise: a coarse timer may fire up to 5 % late, which the 2 s promise does not leave room
    // for, and then autosaveDueInMs() would call a timer due that the event loop still holds back.
    m_debounce.setTimerType(Qt::PreciseTimer);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kAutosaveDelayMs);
    m_maxWait.setTimerType(Qt::PreciseTimer);
    m_maxWait.setSingleShot(true);
    m_maxWait.setInterval(kAutosaveMaxDelayMs);
    connect(&m_debounce, &QTimer::timeout, this, &CanvasDrafts::fire);
    connect(&m_maxWait, &QTimer::timeout, this, &CanvasDrafts::fire);
    if (m_scope.store) {
        connect(m_scope.store, &DraftStore::draftStored, this, &CanvasDrafts::draftStored);
        connect(m_scope.store, &DraftStore::backgroundWriteFinished, this,
                [this](quint64 ticket, bool ok) {
                    if (ticket != m_writing)
                        return; // an older write, or one of another canvas
                    m_writing = 0;
                    if (ok)
                        m_writtenAt = QDateTime::currentDateTime();
                    setOnDisk(ok && !m_typedSinceWrite);
                });
    }
}

void CanvasDrafts::fire()
{
    m_debounce.stop();
    m_maxWait.stop();
    emit autosaveDue();
}

void CanvasDrafts::setOnDisk(bool onDisk)
{
    if (m_onDisk == onDisk)
        return;
    m_onDisk = onDisk;
    emit autosavedChanged();
}

std::optional<qint64> CanvasDrafts::autosaveDueInMs() const
{
    if (!m_debounce.isActive())
        return std::nullopt; // both timers run together and stop together (fire, stopAutosave)
    const qint64 due = std::min(m_debounceDue.deadline(), m_maxWaitDue.deadline());
    return due - QDeadlineTimer::current().deadline();
}

std::optional<qint64> CanvasDrafts::writingForMs() const
{
    return m_writing != 0 ? std::optional<qint64>(m_writingSince.elapsed()) : std::nullopt;
}

std::optional<QDateTime> CanvasDrafts::autosavedAt() const
{
    return m_onDisk ? std::optional<QDateTime>(m_writtenAt) : std::nullopt;
}

DraftKey CanvasDrafts::keyFor(const std::optional<CanvasRevision> &base) const
{
    DraftKey key;
    key.relay = m_scope.relayKey;
    key.communityHost = m_scope.community;
    key.channel = m_channel;
    key.baseRevision = base ? base->eventId : QString::fromLatin1(kExpectedNone);
    return key;
}

DraftKey CanvasDrafts::writeKeyFor(const std::optional<CanvasRevision> &base)
{
    const DraftKey natural = keyFor(base);
    const auto known = m_editKeys.constFind(natural.fileName());
    if (known != m_editKeys.constEnd())
        return *known;
    DraftKey key = natural;
    while (m_scope.store->load(key))
        ++key.copy;
    m_editKeys.insert(natural.fileName(), key);
    return key;
}

void CanvasDrafts::beginEdit(const std::optional<DraftKey> &continuing)
{
    m_writtenThisEdit.clear();
    m_editKeys.clear();
    if (continuing) {
        DraftKey natural = *continuing;
        natural.copy = 0;
        m_editKeys.insert(natural.fileName(), *continuing);
        m_writtenThisEdit.insert(continuing->fileName());
    }
    m_debounce.stop();
    m_maxWait.stop();
    m_writing = 0;
    m_typedSinceWrite = false;
    setOnDisk(false);
}

void CanvasDrafts::textEdited()
{
    // Per keystroke: two timer calls, a clock read and a flag, never a copy of the text. Each
    // deadline is taken after its timer started, so it is never earlier than the timer's own.
    m_debounce.start();
    m_debounceDue.setRemainingTime(kAutosaveDelayMs, Qt::PreciseTimer);
    if (!m_maxWait.isActive()) {
        m_maxWait.start();
        m_maxWaitDue.setRemainingTime(kAutosaveMaxDelayMs, Qt::PreciseTimer);
    }
    if (!m_typedSinceWrite) {
        m_typedSinceWrite = true;
        setOnDisk(false);
    }
}

void CanvasDrafts::stopAutosave()
{
    m_debounce.stop();
    m_maxWait.stop();
}

bool CanvasDrafts::store(const std::optional<CanvasRevision> &base, const QString &text)
{
    if (!m_scope.store)
        return false;
    const DraftKey key = writeKeyFor(base);
    m_writtenThisEdit.insert(key.fileName());
    m_typedSinceWrite = false;
    m_writing = 0;
    const bool ok = m_scope.store->store(key, text);
    if (ok)
        m_writtenAt = QDateTime::currentDateTime();
    setOnDisk(ok);
    return ok;
}

void CanvasDrafts::storeInBackground(const std::optional<CanvasRevision> &base, const QString &text)
{
    if (!m_scope.store)
        return;
    const DraftKey key = writeKeyFor(base);
    m_writtenThisEdit.insert(key.fileName());
    m_typedSinceWrite = false;
    m_writing = m_scope.store->storeInBackground(key, text);
    m_writingSince.start();
}

std::optional<Draft> CanvasDrafts::load(const std::optional<CanvasRevision> &base) const
{
    if (!m_scope.store)
        return std::nullopt;
    return m_scope.store->load(keyFor(base));
}

void CanvasDrafts::flushToDisk()
{
    if (m_scope.store)
        m_scope.store->flush();
}

void CanvasDrafts::discard(const std::optional<CanvasRevision> &base)
{
    // This edit's own draft of the base: never another edit's that it did not take up.
    const auto own = m_editKeys.constFind(keyFor(base).fileName());
    if (own != m_editKeys.constEnd())
        discard(*own);
}

void CanvasDrafts::discard(const DraftKey &key)
{
    if (!m_scope.store)
        return;
    m_writtenThisEdit.remove(key.fileName());
    m_scope.store->discard(key);
}

void CanvasDrafts::withdraw(const std::optional<CanvasRevision> &base)
{
    const auto own = m_editKeys.constFind(keyFor(base).fileName());
    if (own != m_editKeys.constEnd() && m_writtenThisEdit.contains(own->fileName()))
        discard(*own);
}

void CanvasDrafts::discardEditDrafts()
{
    if (!m_scope.store)
        return;
    for (const Draft &draft :
         m_scope.store->draftsForChannel(m_scope.relayKey, m_scope.community, m_channel)) {
        if (m_writtenThisEdit.contains(draft.key.fileName()))
            discard(draft.key);
    }
}

std::optional<Draft> CanvasDrafts::draftToOffer(const std::optional<CanvasRevision> &head)
{
    if (!m_scope.store)
        return std::nullopt;
    for (const Draft &draft :
         m_scope.store->draftsForChannel(m_scope.relayKey, m_scope.community, m_channel)) {
        if (head && draft.content == head->content) {
            m_scope.store->discard(draft.key); // already saved by someone
            continue;
        }
        return draft;
    }
    return std::nullopt;
}

} // namespace buzz::canvas
