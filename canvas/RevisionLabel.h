#pragma once

#include "net/nostr/Event.h"

#include <QString>

#include <optional>

namespace buzz::canvas {

struct CanvasRevision;

// What a revision was, beyond its text: a restore of an older revision or the merge of an edit
// with someone else's change. Written by this app as one extra tag on the kind-40100 event,
// `["restored-from", id, created_at, pubkey]` or `["merged-with", id, created_at, pubkey]`
// (docs/buzz-protocol.md §Revision labels); other clients ignore the unknown tag. The tag is the
// author's own statement, signed with the revision: History shows it, nothing decides on it.
struct RevisionLabel
{
    enum class Kind { Restore, Merge };
    Kind kind = Kind::Restore;
    QString revisionId; // the restored revision, or theirs (64 lower-case hex)
    qint64 createdAt = 0; // that revision's created_at
    QString author; // that revision's author (64 lower-case hex)

    static constexpr const char *kRestoredFromTag = "restored-from";
    static constexpr const char *kMergedWithTag = "merged-with";

    static RevisionLabel of(Kind kind, const QString &revisionId, qint64 createdAt,
                            const QString &author);
    static RevisionLabel restoring(const CanvasRevision &target);
    static RevisionLabel merging(const CanvasRevision &theirs);
    // The label of a merge accepted onto `theirs`: none when the result is one side unchanged
    // (keeping mine on top of theirs, or taking theirs, merges nothing).
    static std::optional<RevisionLabel> forMerge(const std::optional<CanvasRevision> &theirs,
                                                 const QString &mine, const QString &merged);
    nostr::Tag tag() const;
    // The first well-formed label tag of an event; a malformed one (wrong arity, not hex, not a
    // number) is ignored like any unknown tag.
    static std::optional<RevisionLabel> fromEvent(const nostr::Event &event);

    bool operator==(const RevisionLabel &other) const = default;
};

} // namespace buzz::canvas
