#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

#include <optional>
#include <vector>

namespace buzz::canvas {

class DraftWriter;

// Which edit a draft belongs to: the relay, the community host (the tenant), the channel and the
// base revision the edit started from ("none" for a first creation).
struct DraftKey
{
    QString relay; // relay URL as configured
    QString communityHost; // normalised Host (RelayConnection::communityHost())
    QString channel;
    QString baseRevision; // head id at edit start, or "none"
    // 0, or n when another edit's draft of the same base was already on disk as the edit began
    // writing: two edits on one base never share a file (CanvasDrafts::writeKeyFor).
    int copy = 0;

    bool operator==(const DraftKey &) const = default;
    QString fileName() const; // stable, filesystem-safe name derived from the key
};

struct Draft
{
    DraftKey key;
    QString content;
    QDateTime savedAt; // UTC
};

// Unsaved editor text, one file per DraftKey under `directory` (the app data dir's "drafts"),
// written crash-safe by DraftWriter (write a temporary file, sync it, rename it over the old one:
// a kill at any point leaves the old or the new draft, never half of one). Autosaves are written
// on DraftWriter's thread (storeInBackground), every other write waits for the ones before it, so
// a file always ends with the newest text asked for. Drafts survive restarts and crashes; they are
// removed only by discard() — which the app calls after a verified save or when the user
// explicitly discards.
class DraftStore : public QObject
{
    Q_OBJECT
public:
    explicit DraftStore(QString directory, QObject *parent = nullptr);

    QString directory() const { return m_directory; }

    // Writes now (after any background write still queued). False (and a warning) when the disk
    // write failed.
    bool store(const DraftKey &key, const QString &content);
    // Queues the write on the writer thread and returns at once; load() and the lists see the
    // text meanwhile. backgroundWriteFinished(ticket, ok) and, when ok, draftStored follow.
    quint64 storeInBackground(const DraftKey &key, const QString &content);
    std::optional<Draft> load(const DraftKey &key) const;
    // Every draft of one channel on one relay/community, whatever its base (after a restart the
    // head may have moved on; the app offers them for merge). Newest first.
    std::vector<Draft> draftsForChannel(const QString &relay, const QString &communityHost,
                                        const QString &channel) const;
    std::vector<Draft> allDrafts() const;
    bool discard(const DraftKey &key);

    // Debounced autosave for editors: the last content per key is written after `delay` of quiet,
    // or at flush(). Pending autosaves are flushed on destruction.
    void scheduleAutosave(const DraftKey &key, const QString &content, int delayMs = 1000);
    void flush(); // every scheduled and queued write is on disk when it returns

signals:
    void draftStored(const buzz::canvas::DraftKey &key);
    void draftDiscarded(const buzz::canvas::DraftKey &key);
    void backgroundWriteFinished(quint64 ticket, bool ok);

public:
    ~DraftStore() override;

private:
    // Not yet on disk: scheduled (ticket 0) or queued on the writer thread.
    struct Pending
    {
        Draft draft;
        quint64 ticket = 0;
    };
    std::optional<Draft> readFile(const QString &path) const;
    QString pathOf(const DraftKey &key) const;
    void onWritten(quint64 ticket, bool ok, const QString &error);

    QString m_directory;
    QHash<QString, Pending> m_pending; // file name → text not yet on disk
    QTimer m_autosaveTimer;
    std::unique_ptr<DraftWriter> m_writer;
};

} // namespace buzz::canvas
