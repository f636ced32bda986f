#include "canvas/DraftStore.h"

#include "canvas/DraftWriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcDrafts, "buzz.canvas.drafts")

namespace buzz::canvas {

namespace {

const QString kSuffix = QStringLiteral(".draft.json");

QByteArray draftJson(const Draft &draft)
{
    const QJsonObject object {
        {QStringLiteral("relay"), draft.key.relay},
        {QStringLiteral("community_host"), draft.key.communityHost},
        {QStringLiteral("channel"), draft.key.channel},
        {QStringLiteral("base_revision"), draft.key.baseRevision},
        {QStringLiteral("content"), draft.content},
        {QStringLiteral("saved_at"), draft.savedAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("copy"), draft.key.copy},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

QString DraftKey::fileName() const
{
    // Hash, because URLs and hosts are not filesystem-safe; the key itself is stored inside.
    const QByteArray identity = (relay + QLatin1Char('\n') + communityHost + QLatin1Char('\n')
                                 + channel.toLower() + QLatin1Char('\n') + baseRevision.toLower()
                                 + (copy > 0 ? QStringLiteral("\n%1").arg(copy) : QString()))
                                    .toUtf8();
    return QString::fromLatin1(
               QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex().left(40))
        + kSuffix;
}

DraftStore::DraftStore(QString directory, QObject *parent)
    : QObject(parent)
    , m_directory(std::move(directory))
{
    QDir().mkpath(m_directory);
    m_autosaveTimer.setSingleShot(true);
    connect(&m_autosaveTimer, &QTimer::timeout, this, &DraftStore::flush);
    m_writer = std::make_unique<DraftWriter>();
    connect(m_writer.get(), &DraftWriter::written, this, &DraftStore::onWritten);
}

DraftStore::~DraftStore()
{
    flush();
}

QString DraftStore::pathOf(const DraftKey &key) const
{
    return QDir(m_directory).filePath(key.fileName());
}

bool DraftStore::store(const DraftKey &key, const QString &content)
{
    m_pending.remove(key.fileName());
    m_writer->waitForIdle(); // a queued autosave of this key must not land after this text
    QString error;
    const Draft draft {key, content, QDateTime::currentDateTimeUtc()};
    if (!DraftWriter::writeFile(pathOf(key), draftJson(draft), &error)) {
        qCWarning(lcDrafts) << "cannot write draft:" << error;
        return false;
    }
    emit draftStored(key);
    return true;
}

quint64 DraftStore::storeInBackground(const DraftKey &key, const QString &content)
{
    const Draft draft {key, content, QDateTime::currentDateTimeUtc()};
    // The text is shared, not copied: the writer thread only reads it.
    const quint64 ticket = m_writer->enqueue(pathOf(key), [draft] { return draftJson(draft); });
    m_pending.insert(key.fileName(), Pending {draft, ticket});
    return ticket;
}

void DraftStore::onWritten(quint64 ticket, bool ok, const QString &error)
{
    if (!ok)
        qCWarning(lcDrafts) << "cannot write draft:" << error;
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if (it->ticket != ticket)
            continue;
        // The newest text of this file is on disk (a later write or a discard would have
        // replaced this entry).
        const DraftKey key = it->draft.key;
        m_pending.erase(it);
        if (ok)
            emit draftStored(key);
        break;
    }
    emit backgroundWriteFinished(ticket, ok);
}

std::optional<Draft> DraftStore::readFile(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    if (!document.isObject())
        return std::nullopt;
    const QJsonObject object = document.object();
    Draft draft;
    draft.key.relay = object.value(QLatin1String("relay")).toString();
    draft.key.communityHost = object.value(QLatin1String("community_host")).toString();
    draft.key.channel = object.value(QLatin1String("channel")).toString();
    draft.key.baseRevision = object.value(QLatin1String("base_revision")).toString();
    draft.key.copy = object.value(QLatin1String("copy")).toInt(0);
    draft.content = object.value(QLatin1String("content")).toString();
    draft.savedAt = QDateTime::fromString(object.value(QLatin1String("saved_at")).toString(),
                                          Qt::ISODateWithMs);
    return draft;
}

std::optional<Draft> DraftStore::load(const DraftKey &key) const
{
    auto pending = m_pending.constFind(key.fileName());
    if (pending != m_pending.constEnd())
        return pending->draft;
    auto draft = readFile(QDir(m_directory).filePath(key.fileName()));
    if (draft && !(draft->key == key))
        return std::nullopt; // hash collision or a hand-edited file: not ours
    return draft;
}

std::vector<Draft> DraftStore::allDrafts() const
{
    std::vector<Draft> drafts;
    const QDir dir(m_directory);
    for (const QString &name : dir.entryList({QStringLiteral("*") + kSuffix}, QDir::Files)) {
        if (m_pending.contains(name))
            continue;
        if (auto draft = readFile(dir.filePath(name)))
            drafts.push_back(std::move(*draft));
    }
    for (const Pending &pending : m_pending)
        drafts.push_back(pending.draft);
    std::sort(drafts.begin(), drafts.end(),
              [](const Draft &a, const Draft &b) { return a.savedAt > b.savedAt; });
    return drafts;
}

std::vector<Draft> DraftStore::draftsForChannel(const QString &relay, const QString &communityHost,
                                                const QString &channel) const
{
    std::vector<Draft> drafts;
    for (Draft &draft : allDrafts()) {
        if (draft.key.relay == relay && draft.key.communityHost == communityHost
            && draft.key.channel.compare(channel, Qt::CaseInsensitive) == 0)
            drafts.push_back(std::move(draft));
    }
    return drafts;
}

bool DraftStore::discard(const DraftKey &key)
{
    m_pending.remove(key.fileName());
    m_writer->waitForIdle(); // a queued write must not bring the file back
    const bool removed = QFile::remove(QDir(m_directory).filePath(key.fileName()));
    emit draftDiscarded(key);
    return removed;
}

void DraftStore::scheduleAutosave(const DraftKey &key, const QString &content, int delayMs)
{
    m_pending.insert(key.fileName(),
                     Pending {Draft {key, content, QDateTime::currentDateTimeUtc()}, 0});
    m_autosaveTimer.start(delayMs);
}

void DraftStore::flush()
{
    m_autosaveTimer.stop();
    const auto pending = m_pending;
    for (const Pending &entry : pending) {
        if (entry.ticket == 0)
            store(entry.draft.key, entry.draft.content);
    }
    m_writer->waitForIdle();
}

} // namespace buzz::canvas
