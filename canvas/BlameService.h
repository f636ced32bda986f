#pragma once

#include "canvas/CanvasRevision.h"
#include "canvas/LineBlame.h"
#include "net/client/RelayError.h"

#include <QHash>
#include <QObject>

#include <qcoro/qcorotask.h>

#include <optional>
#include <vector>

namespace buzz::canvas {

class CanvasService;

// Blame of a channel's revisions, computed from its history (LineBlame): the walk reads history
// pages (display reads, newest first, with the relay's keyset cursor) only as far back as the
// lines need, and a tagged parent that no page lists by id. Pages, parents and finished blames
// are cached per channel, so blaming the next revision costs one line diff.
//
// The pages may come from a lagging replica (docs/architecture.md §Read intent), so nothing here
// takes a page as the whole history: a walk ends only at a revision whose expected-revision says
// "none", and a parent it cannot read is reported, never guessed (BlameLine::orEarlier; the
// pages read are dropped so that the next try reads them afresh). Events come through
// CanvasService's reads, so each is verified (id, signature, kind, channel) before it is used.
class BlameService : public QObject
{
    Q_OBJECT
public:
    explicit BlameService(CanvasService *service, QObject *parent = nullptr);

    // The channel whose revisions are blamed; another one drops every cache and every answer
    // still on its way.
    void setChannel(const QString &channel);
    QString channel() const { return m_channel; }
    void setPageSize(int pageSize) { m_pageSize = pageSize; }

    // Who last changed each line of `target` (a revision of the channel).
    QCoro::Task<client::Result<Blame>> blame(CanvasRevision target);

    // What the walks cost so far (tests, the bench): history pages and by-id reads sent.
    int pagesRead() const { return m_pagesRead; }
    int revisionsReadById() const { return m_readById; }
    bool isCached(const QString &revisionId) const;

private:
    void forgetPages();

    CanvasService *m_service;
    QString m_channel;
    quint64 m_generation = 0; // bumped by setChannel: a walk of an older one gives up
    int m_pageSize = 100;
    std::vector<CanvasRevision> m_listed; // the pages read, newest first
    std::optional<HistoryCursor> m_nextCursor;
    bool m_firstPageRead = false;
    QHash<QString, CanvasRevision> m_byId; // parents read by id (lower-case id)
    QHash<QString, Blame> m_finished; // complete blames by revision id
    int m_pagesRead = 0;
    int m_readById = 0;
};

} // namespace buzz::canvas
