#pragma once

#include <QByteArray>
#include <QObject>

class QNetworkReply;

namespace buzz::client {

// Reads an HTTP answer as it arrives, a chunk at a time, and cuts it off once it passes `cap`
// bytes (or at once when its Content-Length announces more): an endless or huge answer from a
// relay is never buffered whole first. Qt stops reading from the network while a chunk waits
// unread, so memory stays at the cap plus a chunk. Create it right after the request is sent and
// destroy it before the reply (declare it after the reply's owner); once the reply finished,
// take() returns the answer, or nothing when tooLarge().
class CappedReply : public QObject
{
public:
    static constexpr qint64 kReadChunkBytes = qint64(1) << 20;

    CappedReply(QNetworkReply *reply, qint64 cap);

    // What arrived, the rest read now; empty when the answer was cut off.
    QByteArray take();
    bool tooLarge() const { return m_tooLarge; }
    qint64 cap() const { return m_cap; }

private:
    void onMetaData();
    void readChunk();
    void cutOff();

    QNetworkReply *m_reply;
    qint64 m_cap;
    QByteArray m_received;
    bool m_tooLarge = false;
};

} // namespace buzz::client
