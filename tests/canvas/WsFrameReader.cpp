#include "WsFrameReader.h"

#include <QRandomGenerator>

namespace buzz::test {

std::optional<WsFrameReader::Frame> WsFrameReader::next()
{
    const auto byte = [this](qsizetype index) {
        return quint8(m_buffer.at(index));
    };
    if (m_buffer.size() < 2)
        return std::nullopt;
    const bool masked = (byte(1) & 0x80) != 0;
    quint64 length = byte(1) & 0x7f;
    qsizetype offset = 2;
    if (length == 126 || length == 127) {
        const int bytes = length == 126 ? 2 : 8;
        if (m_buffer.size() < offset + bytes)
            return std::nullopt;
        length = 0;
        for (int i = 0; i < bytes; ++i)
            length = (length << 8) | byte(offset + i);
        offset += bytes;
    }
    const qsizetype maskOffset = offset;
    if (masked)
        offset += 4;
    if (quint64(m_buffer.size()) < quint64(offset) + length)
        return std::nullopt;
    Frame frame;
    frame.fin = (byte(0) & 0x80) != 0;
    frame.opcode = byte(0) & 0x0f;
    frame.payload = m_buffer.mid(offset, qsizetype(length));
    if (masked) {
        for (qsizetype i = 0; i < frame.payload.size(); ++i)
            frame.payload[i] = char(quint8(frame.payload.at(i)) ^ byte(maskOffset + i % 4));
    }
    frame.raw = m_buffer.left(offset + qsizetype(length));
    m_buffer.remove(0, frame.raw.size());
    return frame;
}

QByteArray WsFrameReader::textFrame(const QByteArray &payload, bool masked)
{
    QByteArray frame;
    frame.append(char(0x81)); // FIN + text
    const char maskBit = masked ? char(0x80) : char(0);
    const quint64 length = quint64(payload.size());
    if (length < 126) {
        frame.append(char(maskBit | char(length)));
    } else if (length <= 0xffff) {
        frame.append(char(maskBit | 126));
        frame.append(char(length >> 8));
        frame.append(char(length & 0xff));
    } else {
        frame.append(char(maskBit | 127));
        for (int shift = 56; shift >= 0; shift -= 8)
            frame.append(char((length >> shift) & 0xff));
    }
    if (!masked)
        return frame.append(payload);
    const quint32 key = QRandomGenerator::global()->generate();
    const char mask[4] = {char(key >> 24), char(key >> 16), char(key >> 8), char(key)};
    frame.append(mask, 4);
    for (qsizetype i = 0; i < payload.size(); ++i)
        frame.append(char(payload.at(i) ^ mask[i % 4]));
    return frame;
}

} // namespace buzz::test
