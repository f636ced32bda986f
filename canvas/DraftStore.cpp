#include "canvas/DraftStore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSaveFile>

#include <algorithm>

Q_LOGGING_CATEGORY(lcDrafts, "buzz.canvas.drafts")

namespace buzz::canvas {

namespace {

const QString kSuffix = QStringLiteral(".draft.json");

} // namespace

QString DraftKey::fileName() const
{
    // Hash, because URLs and hosts are not filesystem-safe; the key itself is stored inside.
    const QByteArray identity = (relay + QLatin1Char('\n') + communityHost + QLatin1Char('\n')
                                 + channel.toLower() + QLatin1Char('\n') + baseRevision.toLower())
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
}

DraftStore::~DraftStore()
{
    flush();
}

bool DraftStore::store(const DraftKey &key, const QString &content)
{
    m_pending.remove(key.fileName());
    QDir().mkpath(m_directory);
    const QJsonObject object {
        {QStringLiteral("relay"), key.relay},
        {QStringLiteral("community_host"), key.communityHost},
        {QStringLiteral("channel"), key.channel},
        {QStringLiteral("base_revision"), key.baseRevision},
        {QStringLiteral("content"), content},
        {QStringLiteral("saved_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
    };
    QSaveFile file(QDir(m_directory).filePath(key.fileName()));
    if (!file.open(QIODevice::WriteOnly)) {
        qCWarning(lcDrafts) << "cannot write draft:" << file.errorString();
        return false;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(QJsonDocument(object).toJson(QJsonDocument::Compact));
    if (!file.commit()) {
        qCWarning(lcDrafts) << "cannot commit draft:" << file.errorString();
        return false;
    }
    emit draftStored(key);
    return true;
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
    draft.content = object.value(QLatin1String("content")).toString();
    draft.savedAt = QDateTime::fromString(object.value(QLatin1String("saved_at")).toString(),
                                          Qt::ISODateWithMs);
    return draft;
}

std::optional<Draft> DraftStore::load(const DraftKey &key) const
{
    auto pending = m_pending.constFind(key.fileName());
    if (pending != m_pending.constEnd())
        return *pending;
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
    for (const Draft &draft : m_pending)
        drafts.push_back(draft);
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
    const bool removed = QFile::remove(QDir(m_directory).filePath(key.fileName()));
    emit draftDiscarded(key);
    return removed;
}

void DraftStore::scheduleAutosave(const DraftKey &key, const QString &content, int delayMs)
{
    m_pending.insert(key.fileName(), Draft {key, content, QDateTime::currentDateTimeUtc()});
    m_autosaveTimer.start(delayMs);
}

void DraftStore::flush()
{
    m_autosaveTimer.stop();
    const auto pending = m_pending;
    for (const Draft &draft : pending)
        store(draft.key, draft.content);
}

} // namespace buzz::canvas
