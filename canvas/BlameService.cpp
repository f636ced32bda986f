#include "canvas/BlameService.h"

#include "canvas/CanvasService.h"
#include "canvas/RevisionLineage.h"

#include <QPointer>

#include <algorithm>

namespace buzz::canvas {

BlameService::BlameService(CanvasService *service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{ }

void BlameService::setChannel(const QString &channel)
{
    if (channel.toLower() == m_channel)
        return;
    m_channel = channel.toLower();
    ++m_generation;
    forgetPages();
    m_byId.clear();
    m_finished.clear();
}

void BlameService::forgetPages()
{
    m_listed.clear();
    m_nextCursor.reset();
    m_firstPageRead = false;
}

bool BlameService::isCached(const QString &revisionId) const
{
    return m_finished.contains(revisionId.toLower());
}

QCoro::Task<client::Result<Blame>> BlameService::blame(CanvasRevision target)
{
    const QString targetId = target.eventId.toLower();
    if (auto known = m_finished.constFind(targetId); known != m_finished.constEnd())
        co_return *known;
    QPointer<BlameService> self(this);
    const quint64 generation = m_generation;
    const QString channel = m_channel;
    const auto abandoned = [&] {
        return !self || self->m_generation != generation;
    };
    const auto gone = [] {
        return client::fail(client::RelayError::make(client::RelayError::Kind::Internal,
                                                     QStringLiteral("the channel was closed")));
    };
    LineBlame walk(target);
    while (!walk.done()) {
        const CanvasRevision current = walk.current();
        const QString currentId = current.eventId.toLower();
        if (currentId != targetId && m_finished.contains(currentId)) {
            walk.finishFrom(m_finished.value(currentId));
            break;
        }
        const bool mayHaveOlder = !m_firstPageRead || m_nextCursor.has_value();
        const auto parent = RevisionLineage::parentOf(m_listed, current, mayHaveOlder);
        using Kind = RevisionLineage::Parent::Kind;
        if (parent.kind == Kind::First) {
            // Proved only by the revision's own "none"; an untagged oldest row may just be the
            // end of what this replica holds.
            if (current.expectedRevision)
                walk.finishAtRoot();
            else
                walk.finishUnknown();
            break;
        }
        if (parent.kind == Kind::Listed) {
            walk.stepTo(m_listed[std::size_t(parent.row)]);
            continue;
        }
        if (const auto read = m_byId.constFind(parent.id); read != m_byId.constEnd()) {
            walk.stepTo(*read);
            continue;
        }
        if (mayHaveOlder) {
            auto page = co_await m_service->history(channel, m_nextCursor, m_pageSize);
            if (abandoned())
                co_return gone();
            ++m_pagesRead;
            if (!page)
                co_return client::fail(page.error());
            m_firstPageRead = true;
            m_nextCursor = page->nextCursor;
            for (CanvasRevision &revision : page->revisions) {
                const bool listed =
                    std::any_of(m_listed.begin(), m_listed.end(), [&](const CanvasRevision &row) {
                        return row.hasId(revision.eventId);
                    });
                if (!listed)
                    m_listed.push_back(std::move(revision));
            }
            continue;
        }
        // The pages are exhausted and do not list the tagged parent: ask for it by id.
        auto byId = co_await m_service->revision(channel, parent.id);
        if (abandoned())
            co_return gone();
        ++m_readById;
        if (!byId)
            co_return client::fail(byId.error());
        if (!*byId) {
            walk.finishUnknown();
            break;
        }
        m_byId.insert(parent.id, **byId);
        walk.stepTo(**byId);
    }
    Blame result = walk.result();
    if (result.complete())
        m_finished.insert(targetId, result);
    else
        forgetPages(); // a lagging replica's pages: the next try reads them again
    co_return result;
}

} // namespace buzz::canvas
