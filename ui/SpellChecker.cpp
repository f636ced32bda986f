#include "ui/SpellChecker.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QTimer>

#include <hunspell/hunspell.hxx>

#include <mutex>

Q_LOGGING_CATEGORY(lcSpelling, "buzz.ui.spelling")

namespace buzz::ui {

// The Hunspell instance, shared with the worker's tasks. Hunspell is not thread-safe: every call
// holds the mutex, and the worker takes it one line at a time, so a suggestion asked for on the GUI
// thread waits for at most one line's check.
struct SpellEngine
{
    std::mutex mutex;
    std::unique_ptr<Hunspell> hunspell;
    bool utf8 = true; // else ISO 8859-1; other encodings are refused at load

    std::string encode(const QString &word) const
    {
        return utf8 ? word.toStdString() : word.toLatin1().toStdString();
    }
    QString decode(const std::string &word) const
    {
        return utf8 ? QString::fromStdString(word)
                    : QString::fromLatin1(word.data(), qsizetype(word.size()));
    }
};

namespace {

// Lines checked per worker task: large enough to amortise the hand-over, small enough that a
// result for what the user is typing comes back promptly.
constexpr int kLinesPerTask = 256;
// The cache holds this many distinct lines before it starts again (a 256 KiB canvas has ~5,000).
constexpr int kMaxCachedLines = 50'000;

QStringList readPersonalWords(const QString &path)
{
    QStringList words;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return words;
    // A personal dictionary is a few hundred words; refuse to load a file that is something else.
    const QByteArray data = file.read(1024 * 1024);
    for (const QByteArray &line : data.split('\n')) {
        const QString word = QString::fromUtf8(line).trimmed();
        if (!word.isEmpty() && word.size() <= 100)
            words << word;
    }
    return words;
}

} // namespace

QStringList SpellChecker::systemDictionaryDirs()
{
    return {QStringLiteral("/usr/share/hunspell"), QStringLiteral("/usr/share/myspell/dicts"),
            QStringLiteral("/usr/share/myspell")};
}

std::optional<SpellChecker::Dictionary> SpellChecker::findDictionary(const QStringList &dirs,
                                                                     const QString &localeName)
{
    const auto inDir = [](const QString &dir, const QString &name) -> std::optional<Dictionary> {
        const QString aff = QDir(dir).filePath(name + QStringLiteral(".aff"));
        const QString dic = QDir(dir).filePath(name + QStringLiteral(".dic"));
        if (QFileInfo::exists(aff) && QFileInfo::exists(dic))
            return Dictionary {name, aff, dic};
        return std::nullopt;
    };
    const QString exact = localeName.section(QLatin1Char('.'), 0, 0); // "de_DE.UTF-8"
    const QString language = exact.section(QLatin1Char('_'), 0, 0);
    for (const QString &dir : dirs) {
        if (auto found = inDir(dir, exact))
            return found;
    }
    for (const QString &dir : dirs) {
        const QStringList same =
            QDir(dir).entryList({language + QStringLiteral("_*.dic")}, QDir::Files, QDir::Name);
        for (const QString &file : same) {
            if (auto found = inDir(dir, file.chopped(4)))
                return found;
        }
    }
    for (const QString &dir : dirs) {
        if (auto found = inDir(dir, QStringLiteral("en_US")))
            return found;
    }
    return std::nullopt;
}

SpellChecker::SpellChecker(Dictionary dictionary, QString personalDictionaryPath, QObject *parent)
    : QObject(parent)
    , m_dictionary(std::move(dictionary))
    , m_personalPath(std::move(personalDictionaryPath))
    , m_engine(std::make_shared<SpellEngine>())
{
    m_worker.setMaxThreadCount(1);
    m_worker.setObjectName(QStringLiteral("spelling"));
    m_worker.start([this, engine = m_engine, dictionary = m_dictionary,
                    personal = readPersonalWords(m_personalPath)] {
        auto hunspell =
            std::make_unique<Hunspell>(QFile::encodeName(dictionary.affPath).constData(),
                                       QFile::encodeName(dictionary.dicPath).constData());
        const std::string encoding = hunspell->get_dict_encoding();
        const bool utf8 = encoding == "UTF-8";
        const bool usable = utf8 || encoding == "ISO8859-1";
        {
            std::lock_guard lock(engine->mutex);
            engine->utf8 = utf8;
            if (usable) {
                engine->hunspell = std::move(hunspell);
                for (const QString &word : personal)
                    engine->hunspell->add(engine->encode(word));
            }
        }
        // The destructor waits for this task, so `this` is alive; the call runs on its thread.
        QMetaObject::invokeMethod(
            this,
            [this, usable, encoding] {
                if (!usable) {
                    qCWarning(lcSpelling)
                        << "dictionary" << m_dictionary.dicPath << "has an unsupported encoding"
                        << QString::fromStdString(encoding);
                    return;
                }
                m_ready = true;
                qCInfo(lcSpelling) << "spell checking in" << m_dictionary.language;
                emit readyChanged();
                scheduleCheck();
            },
            Qt::QueuedConnection);
    });
}

SpellChecker::~SpellChecker()
{
    m_worker.clear();
    m_worker.waitForDone();
}

void SpellChecker::setEnabled(bool enabled)
{
    if (m_enabled == enabled)
        return;
    m_enabled = enabled;
    emit enabledChanged(enabled);
}

std::optional<std::vector<SpellWord>> SpellChecker::misspellings(const QString &line)
{
    if (const auto found = m_results.constFind(line); found != m_results.cend())
        return *found;
    if (!m_queued.contains(line)) {
        m_queued.insert(line);
        m_queue << line;
        scheduleCheck();
    }
    return std::nullopt;
}

void SpellChecker::scheduleCheck()
{
    // Lines asked for in one pass of the highlighter go to the worker together, after it.
    if (m_checkScheduled || m_checking || !m_ready || m_queue.isEmpty())
        return;
    m_checkScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_checkScheduled = false;
        startCheck();
    });
}

void SpellChecker::startCheck()
{
    if (m_checking || !m_ready || m_queue.isEmpty())
        return;
    // The newest lines first: what the user is typing, then the rest of a large canvas.
    QStringList batch;
    while (!m_queue.isEmpty() && batch.size() < kLinesPerTask)
        batch << m_queue.takeLast();
    m_checking = true;
    m_worker.start([this, engine = m_engine, batch] {
        std::vector<std::vector<SpellWord>> found;
        found.reserve(size_t(batch.size()));
        for (const QString &line : batch) {
            std::vector<SpellWord> wrong;
            for (const SpellWord &word : spellableWords(line)) {
                const std::string encoded = engine->encode(line.mid(word.start, word.length));
                std::lock_guard lock(engine->mutex);
                if (!engine->hunspell->spell(encoded))
                    wrong.push_back(word);
            }
            found.push_back(std::move(wrong));
        }
        QMetaObject::invokeMethod(
            this, [this, batch, found = std::move(found)] { acceptResults(batch, found); },
            Qt::QueuedConnection);
    });
}

void SpellChecker::acceptResults(const QStringList &lines,
                                 const std::vector<std::vector<SpellWord>> &found)
{
    m_checking = false;
    if (m_results.size() + lines.size() > kMaxCachedLines)
        m_results.clear();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        m_queued.remove(lines[i]);
        m_results.insert(lines[i], found[size_t(i)]);
    }
    emit linesChecked();
    scheduleCheck();
}

QStringList SpellChecker::suggestions(const QString &word, int limit)
{
    QStringList result;
    if (!m_ready)
        return result;
    std::vector<std::string> suggested;
    {
        std::lock_guard lock(m_engine->mutex);
        suggested = m_engine->hunspell->suggest(m_engine->encode(word));
    }
    for (const std::string &suggestion : suggested) {
        if (result.size() >= limit)
            break;
        result << m_engine->decode(suggestion);
    }
    return result;
}

void SpellChecker::addToDictionary(const QString &word)
{
    const QString trimmed = word.trimmed();
    if (trimmed.isEmpty() || !m_ready)
        return;
    {
        std::lock_guard lock(m_engine->mutex);
        m_engine->hunspell->add(m_engine->encode(trimmed));
    }
    if (!m_personalPath.isEmpty()) {
        QStringList words = readPersonalWords(m_personalPath);
        if (!words.contains(trimmed)) {
            words << trimmed;
            QDir().mkpath(QFileInfo(m_personalPath).absolutePath());
            QSaveFile file(m_personalPath);
            if (file.open(QIODevice::WriteOnly | QIODevice::Text)) {
                file.write(words.join(QLatin1Char('\n')).toUtf8() + '\n');
                if (!file.commit())
                    qCWarning(lcSpelling) << "could not save" << m_personalPath;
            }
        }
    }
    // Lines that were wrong only because of this word are right now.
    for (auto it = m_results.begin(); it != m_results.end(); ++it) {
        auto &wrong = it.value();
        const QString &line = it.key();
        wrong.erase(std::remove_if(wrong.begin(), wrong.end(),
                                   [&](const SpellWord &w) {
                                       return QStringView(line).mid(w.start, w.length) == trimmed;
                                   }),
                    wrong.end());
    }
    emit wordAdded(trimmed);
}

} // namespace buzz::ui
