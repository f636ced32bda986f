#include "canvas/DraftWriter.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace buzz::canvas {

DraftWriter::DraftWriter(QObject *parent)
    : QObject(parent)
    , m_thread([this] { run(); })
{ }

DraftWriter::~DraftWriter()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join(); // the thread drains the queue before it ends
}

quint64 DraftWriter::enqueue(QString path, Build build)
{
    quint64 ticket = 0;
    {
        std::lock_guard lock(m_mutex);
        ticket = m_nextTicket++;
        m_jobs.push_back(Job {ticket, std::move(path), std::move(build)});
    }
    m_wake.notify_one();
    return ticket;
}

void DraftWriter::waitForIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_jobs.empty() && !m_busy; });
}

void DraftWriter::run()
{
    // A batch thread: woken by a keystroke's autosave it must not take the CPU from the GUI
    // thread (on a busy machine the woken writer would otherwise run first and the keystroke
    // wait for the JSON of the whole draft), and a lower weight for the same reason. It still
    // gets its share: a draft is written within milliseconds on an idle core.
    sched_param param {};
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
        if (m_jobs.empty()) // stopping, and nothing left to write
            return;
        Job job = std::move(m_jobs.front());
        m_jobs.pop_front();
        m_busy = true;
        lock.unlock();
        QString error;
        const bool ok = writeFile(job.path, job.build(), &error);
        // Queued to this object's thread; dropped by Qt if the object is gone by then.
        QMetaObject::invokeMethod(
            this, [this, ticket = job.ticket, ok, error] { emit written(ticket, ok, error); },
            Qt::QueuedConnection);
        lock.lock();
        m_busy = false;
        if (m_jobs.empty())
            m_idle.notify_all();
    }
}

bool DraftWriter::writeFile(const QString &path, const QByteArray &bytes, QString *error)
{
    const QString directory = QFileInfo(path).absolutePath();
    QDir().mkpath(directory);
    // QSaveFile writes a temporary file beside the target, syncs it to the disk at commit() and
    // only then renames it over the target: the old draft stays whole until the new one is.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(bytes) != bytes.size()) {
        *error = file.errorString();
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    // The rename is durable once the directory entry is on the disk too.
    const int fd = ::open(QFile::encodeName(directory).constData(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
    return true;
}

} // namespace buzz::canvas
