#include "net/client/CappedReply.h"

#include <QNetworkReply>

#include <utility>

namespace buzz::client {

CappedReply::CappedReply(QNetworkReply *reply, qint64 cap)
    : m_reply(reply)
    , m_cap(cap)
{
    m_reply->setReadBufferSize(kReadChunkBytes);
    // Qt 6.4 drops a read buffer size set on a POST before its answer started: set it again when
    // the headers are in.
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &CappedReply::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &CappedReply::readChunk);
}

void CappedReply::onMetaData()
{
    m_reply->setReadBufferSize(kReadChunkBytes);
    const QVariant declared = m_reply->header(QNetworkRequest::ContentLengthHeader);
    if (!m_tooLarge && declared.isValid() && declared.toLongLong() > m_cap)
        cutOff();
}

void CappedReply::readChunk()
{
    if (m_tooLarge)
        return;
    m_received += m_reply->readAll();
    if (m_received.size() > m_cap)
        cutOff();
}

void CappedReply::cutOff()
{
    m_tooLarge = true;
    m_received = QByteArray();
    // Queued: abort() finishes the reply, which would resume a coroutine waiting for it from
    // inside this signal.
    QMetaObject::invokeMethod(m_reply, &QNetworkReply::abort, Qt::QueuedConnection);
}

QByteArray CappedReply::take()
{
    readChunk(); // what arrived with the end of the answer
    return m_tooLarge ? QByteArray() : std::exchange(m_received, QByteArray());
}

} // namespace buzz::client
