#pragma once

#include "ui/SpellWords.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <memory>
#include <optional>
#include <vector>

namespace buzz::ui {

struct SpellEngine;

// Spell checking for the editor with Hunspell. The dictionary loads and lines are checked on a
// worker thread (a German dictionary takes a few hundred milliseconds to load, a 256 KiB canvas
// has tens of thousands of words); the GUI thread only reads results from a cache keyed by the
// line's text, so typing never waits for Hunspell. MarkdownHighlighter asks for each line it
// colours and underlines what comes back; CanvasEditor offers suggestions and "Add to dictionary".
// Words the user adds are kept one per line in the personal dictionary file (the profile's
// dictionary.txt), which is loaded with the dictionary.
class SpellChecker : public QObject
{
    Q_OBJECT
public:
    struct Dictionary
    {
        QString language; // "de_DE"
        QString affPath;
        QString dicPath;
    };
    // Where Debian's hunspell-* and myspell-* packages put dictionaries.
    static QStringList systemDictionaryDirs();
    // The dictionary for a UI language: `de_DE`, else another `de_*`, else `en_US`; none when no
    // such files exist (spell checking is then off).
    static std::optional<Dictionary> findDictionary(const QStringList &dirs,
                                                    const QString &localeName);

    SpellChecker(Dictionary dictionary, QString personalDictionaryPath, QObject *parent = nullptr);
    ~SpellChecker() override;

    QString language() const { return m_dictionary.language; }
    bool isReady() const { return m_ready; } // the dictionary is loaded
    bool isEnabled() const { return m_enabled; }
    void setEnabled(bool enabled);

    // The misspelled words of `line` (SpellWords: prose only) when it has been checked. Else none,
    // and the line is queued: linesChecked() follows once it is.
    std::optional<std::vector<SpellWord>> misspellings(const QString &line);
    // Hunspell's suggestions for one word, best first (at most `limit`).
    QStringList suggestions(const QString &word, int limit = 6);
    // Accepts `word` from now on, in this and later sessions.
    void addToDictionary(const QString &word);

signals:
    void readyChanged();
    void linesChecked(); // queued lines have results now: ask again
    void wordAdded(const QString &word);
    void enabledChanged(bool enabled);

private:
    void scheduleCheck();
    void startCheck();
    void acceptResults(const QStringList &lines, const std::vector<std::vector<SpellWord>> &found);

    Dictionary m_dictionary;
    QString m_personalPath;
    std::shared_ptr<SpellEngine> m_engine;
    QThreadPool m_worker; // one thread: the engine's calls are serialised anyway
    bool m_ready = false;
    bool m_enabled = true;
    bool m_checkScheduled = false;
    bool m_checking = false;
    QHash<QString, std::vector<SpellWord>> m_results;
    QSet<QString> m_queued;
    QStringList m_queue;
};

} // namespace buzz::ui
