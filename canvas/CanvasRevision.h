#pragma once

#include "canvas/RevisionLabel.h"
#include "net/nostr/Event.h"
#include "net/nostr/Kinds.h"

#include <QMetaType>
#include <QString>

#include <optional>
#include <vector>

namespace buzz::canvas {

constexpr int kCanvasKind = nostr::kinds::kCanvas;
// The literal expected-revision value of a first save ("I expect no canvas yet").
inline constexpr const char *kExpectedNone = "none";

// One saved revision of a channel's canvas: a kind 40100 event.
struct CanvasRevision
{
    QString eventId; // 64 lower-case hex
    QString channel; // channel UUID (lower-case) from the h tag
    QString content; // the whole Markdown document (may be empty: an empty canvas is a revision)
    qint64 createdAt = 0; // unix seconds
    QString author; // pubkey hex
    // The event's own expected-revision tag: nullopt = untagged (legacy unconditional write),
    // "none" = first creation, else the 64-hex id it was based on. Links the ancestry chain.
    std::optional<QString> expectedRevision;
    // A restore or a merge, as its author labelled it (RevisionLabel); nullopt for a plain save.
    std::optional<RevisionLabel> label;

    bool isValid() const { return !eventId.isEmpty(); }
    // Case-insensitive id comparison (clients compare revision ids case-insensitively).
    bool hasId(const QString &id) const { return eventId.compare(id, Qt::CaseInsensitive) == 0; }
    // Would the relay show this revision as current rather than `other`? (nostr::isNewer: newer
    // created_at, same second → lower id.)
    bool isNewerThan(const CanvasRevision &other) const;

    // A revision known only by its id (the base a conflict outcome was told about).
    static CanvasRevision named(const QString &channel, const QString &eventId);
    // nullopt when the event is not a kind-40100 canvas event.
    static std::optional<CanvasRevision> fromEvent(const nostr::Event &event);
};

// Keyset cursor of a history page: the next page starts strictly after this row
// (until = createdAt, before_id = eventId).
struct HistoryCursor
{
    qint64 createdAt = 0;
    QString eventId;
};

// A page of history, newest first. nextCursor is set only when the page was full.
struct HistoryPage
{
    std::vector<CanvasRevision> revisions;
    std::optional<HistoryCursor> nextCursor;
    // The relay answered a full page after the cursor with nothing older than it (it repeated a
    // page, or ignored the cursor): the walk cannot advance, so it ends here (nextCursor unset)
    // and the caller warns that history may go on.
    bool stalled = false;
};

} // namespace buzz::canvas

Q_DECLARE_METATYPE(buzz::canvas::CanvasRevision)
