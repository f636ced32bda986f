#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace buzz::canvas {

// Writes draft files on a thread of its own, in the order they were asked for, so an autosave
// never stalls typing on the GUI thread: building a 256 KiB draft, writing it and waiting for the
// disk (fsync) take milliseconds that a keystroke must not wait for.
//
// Each file is written the crash-safe way (writeFile): a temporary file in the same directory,
// flushed to the disk, then renamed over the old one and the directory synced, so a kill or a power
// loss at any point leaves the previous draft or the new one, never half of one.
class DraftWriter : public QObject
{
    Q_OBJECT
public:
    // Builds the bytes on the writer thread (the JSON of a large draft is not free either).
    using Build = std::function<QByteArray()>;

    explicit DraftWriter(QObject *parent = nullptr);
    ~DraftWriter() override; // finishes every queued write first

    // Queues a write of `build()` to `path`; written(ticket, ok) follows on this object's thread.
    quint64 enqueue(QString path, Build build);
    // Blocks until every queued write is on disk (quitting, a discard, a synchronous store).
    void waitForIdle();

    // The crash-safe write itself (any thread). False, with `error` set, when it failed.
    static bool writeFile(const QString &path, const QByteArray &bytes, QString *error);

signals:
    void written(quint64 ticket, bool ok, const QString &error);

private:
    struct Job
    {
        quint64 ticket = 0;
        QString path;
        Build build;
    };
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake; // a job queued, or stopping
    std::condition_variable m_idle; // the queue ran empty
    std::deque<Job> m_jobs;
    bool m_busy = false;
    bool m_stopping = false;
    quint64 m_nextTicket = 1;
    std::thread m_thread;
};

} // namespace buzz::canvas
