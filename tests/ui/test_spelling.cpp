// Spell checking in the editor (issue 31 item 9): Hunspell underlines misspelled prose words off
// the GUI thread, never code spans, fenced or indented code, links or channel references; the
// context menu offers suggestions (one undoable replacement) and "Add to dictionary", which the
// profile keeps. A tiny dictionary of our own (tests/data/spelling) keeps the suite independent of
// the dictionaries installed on the machine.

#include "ui/CanvasEditor.h"
#include "ui/MarkdownHighlighter.h"
#include "ui/SpellChecker.h"
#include "ui/SpellWords.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <memory>

using namespace buzz::ui;

namespace {

const QString kDictionaryDir = QStringLiteral(BUZZ_TEST_DATA_DIR "/spelling");

SpellChecker::Dictionary testDictionary()
{
    return {QStringLiteral("xx_TEST"), kDictionaryDir + QStringLiteral("/xx_TEST.aff"),
            kDictionaryDir + QStringLiteral("/xx_TEST.dic")};
}

QStringList wordsOf(const QString &line)
{
    QStringList words;
    for (const SpellWord &word : spellableWords(line))
        words << line.mid(word.start, word.length);
    return words;
}

} // namespace

class SpellingTest : public QObject
{
    Q_OBJECT

private:
    // Waits until the checker is ready and `line` has a result.
    static std::optional<std::vector<SpellWord>> checked(SpellChecker &spelling,
                                                         const QString &line)
    {
        if (!spelling.isReady()) {
            QSignalSpy ready(&spelling, &SpellChecker::readyChanged);
            if (!ready.wait(10000))
                return std::nullopt;
        }
        auto result = spelling.misspellings(line);
        QSignalSpy done(&spelling, &SpellChecker::linesChecked);
        for (int i = 0; !result && i < 10 && done.wait(10000); ++i)
            result = spelling.misspellings(line);
        return result;
    }

private slots:
    void onlyProseWordsAreChecked()
    {
        QCOMPARE(wordsOf(QStringLiteral("The quick brown fox")),
                 QStringList({QStringLiteral("The"), QStringLiteral("quick"),
                              QStringLiteral("brown"), QStringLiteral("fox")}));
        // Code spans (even unclosed, while typing), link targets, autolinks, URLs, e-mail,
        // channel references, acronyms, words with digits and single letters are not prose.
        QCOMPARE(wordsOf(QStringLiteral("run `gti statsu` now")),
                 QStringList({QStringLiteral("run"), QStringLiteral("now")}));
        QCOMPARE(wordsOf(QStringLiteral("typing ``an unclosd span")),
                 QStringList({QStringLiteral("typing")}));
        QCOMPARE(
            wordsOf(QStringLiteral("see [the docs](https://exmaple.org/pth) or <https://x.y/zz>")),
            QStringList({QStringLiteral("see"), QStringLiteral("the"), QStringLiteral("docs"),
                         QStringLiteral("or")}));
        QCOMPARE(
            wordsOf(QStringLiteral("mail bob@exmaple.org in #chanel-nme via www.exmaple.org")),
            QStringList({QStringLiteral("mail"), QStringLiteral("in"), QStringLiteral("via")}));
        QCOMPARE(
            wordsOf(QStringLiteral("HTTP and v2beta and x and snake_case")),
            QStringList({QStringLiteral("and"), QStringLiteral("and"), QStringLiteral("and")}));
        // One word each by Unicode's rules; quotes around a word are not part of it.
        QCOMPARE(
            wordsOf(QStringLiteral("don't say 'Grüße'")),
            QStringList({QStringLiteral("don't"), QStringLiteral("say"), QStringLiteral("Grüße")}));
        QCOMPARE(
            wordsOf(QStringLiteral("<b>bold</b> and **strng**")),
            QStringList({QStringLiteral("bold"), QStringLiteral("and"), QStringLiteral("strng")}));
    }

    void dictionaryFollowsTheUiLanguage()
    {
        QTemporaryDir first;
        QTemporaryDir second;
        const auto touch = [](const QTemporaryDir &dir, const QString &name) {
            for (const char *suffix : {".aff", ".dic"}) {
                QFile file(dir.filePath(name + QLatin1String(suffix)));
                QVERIFY(file.open(QIODevice::WriteOnly));
            }
        };
        QVERIFY(!SpellChecker::findDictionary({first.path()}, QStringLiteral("de_DE")));
        touch(second, QStringLiteral("en_US"));
        const QStringList dirs {first.path(), second.path()};
        QCOMPARE(SpellChecker::findDictionary(dirs, QStringLiteral("de_DE"))->language,
                 QStringLiteral("en_US")); // the fallback
        touch(second, QStringLiteral("de_AT"));
        QCOMPARE(SpellChecker::findDictionary(dirs, QStringLiteral("de_DE.UTF-8"))->language,
                 QStringLiteral("de_AT")); // the same language
        touch(first, QStringLiteral("de_DE"));
        const auto exact = SpellChecker::findDictionary(dirs, QStringLiteral("de_DE"));
        QCOMPARE(exact->language, QStringLiteral("de_DE"));
        QCOMPARE(exact->dicPath, first.filePath(QStringLiteral("de_DE.dic")));
    }

    void misspelledWordsComeBackFromTheWorker()
    {
        QTemporaryDir profile;
        SpellChecker spelling(testDictionary(), profile.filePath(QStringLiteral("dictionary.txt")));
        const QString line = QStringLiteral("The quikc brown fox `jmups` over the lazzy dog");
        const auto wrong = checked(spelling, line);
        QVERIFY(wrong);
        QCOMPARE(int(wrong->size()), 2);
        QCOMPARE(line.mid((*wrong)[0].start, (*wrong)[0].length), QStringLiteral("quikc"));
        QCOMPARE(line.mid((*wrong)[1].start, (*wrong)[1].length), QStringLiteral("lazzy"));
        QVERIFY(spelling.suggestions(QStringLiteral("quikc")).contains(QStringLiteral("quick")));
        // Non-ASCII words round-trip through the dictionary's encoding.
        const auto greeting = checked(spelling, QStringLiteral("Grüße world"));
        QVERIFY(greeting);
        QVERIFY(greeting->empty());
    }

    void addedWordsAreKeptInTheProfile()
    {
        QTemporaryDir profile;
        const QString personal = profile.filePath(QStringLiteral("dictionary.txt"));
        const QString line = QStringLiteral("hello Nostr world");
        {
            SpellChecker spelling(testDictionary(), personal);
            const auto wrong = checked(spelling, line);
            QVERIFY(wrong);
            QCOMPARE(int(wrong->size()), 1);
            QSignalSpy added(&spelling, &SpellChecker::wordAdded);
            spelling.addToDictionary(QStringLiteral("Nostr"));
            QCOMPARE(added.count(), 1);
            QVERIFY(spelling.misspellings(line)->empty()); // at once, for lines already checked
        }
        // The next session (a new checker on the same profile) accepts it too.
        SpellChecker again(testDictionary(), personal);
        const auto wrong = checked(again, line);
        QVERIFY(wrong);
        QVERIFY(wrong->empty());
    }

    void editorUnderlinesProseButNotCode()
    {
        QTemporaryDir profile;
        SpellChecker spelling(testDictionary(), profile.filePath(QStringLiteral("dictionary.txt")));
        CanvasEditor editor;
        editor.setSpellChecker(&spelling);
        editor.loadText(
            QStringLiteral("# A titel\n\nwe wrte `speling` here\n\n```\nwrte in code\n```\n"
                           "\n    wrte indented code\n"));
        const QTextDocument *document = editor.textEdit()->document();
        const MarkdownHighlighter *highlighter = editor.highlighter();
        const auto misspelledAt = [&](int blockNumber, const QString &word) {
            const QTextBlock block = document->findBlockByNumber(blockNumber);
            return highlighter->isMisspelled(block, int(block.text().indexOf(word)));
        };
        QTRY_VERIFY_WITH_TIMEOUT(misspelledAt(2, QStringLiteral("wrte")), 10000);
        QVERIFY(misspelledAt(0, QStringLiteral("titel"))); // headings are prose
        QVERIFY(!misspelledAt(2, QStringLiteral("we")));
        QVERIFY(!misspelledAt(2, QStringLiteral("speling"))); // a code span
        QVERIFY(!misspelledAt(5, QStringLiteral("wrte"))); // a fenced block
        QVERIFY(!misspelledAt(8, QStringLiteral("wrte"))); // an indented block

        // Turned off, nothing is underlined; on again, it is back.
        spelling.setEnabled(false);
        QTRY_VERIFY_WITH_TIMEOUT(!misspelledAt(2, QStringLiteral("wrte")), 10000);
        spelling.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(misspelledAt(2, QStringLiteral("wrte")), 10000);
    }

    void contextMenuReplacesAndLearns()
    {
        QTemporaryDir profile;
        SpellChecker spelling(testDictionary(), profile.filePath(QStringLiteral("dictionary.txt")));
        CanvasEditor editor;
        editor.resize(800, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor, 30000));
        editor.setSpellChecker(&spelling);
        editor.loadText(QStringLiteral("the quikc fox and Zorblax"));
        QPlainTextEdit *text = editor.textEdit();
        const QTextBlock block = text->document()->firstBlock();
        QTRY_VERIFY_WITH_TIMEOUT(editor.highlighter()->isMisspelled(block, 5), 10000);

        const auto pointAt = [text](int position) {
            QTextCursor cursor(text->document());
            cursor.setPosition(position);
            return text->cursorRect(cursor).center();
        };
        std::unique_ptr<QMenu> menu(editor.createContextMenu(pointAt(6)));
        QAction *suggestion = nullptr;
        for (QAction *action : menu->actions()) {
            if (action->objectName() == QLatin1String("spellingSuggestion")
                && action->text() == QLatin1String("quick"))
                suggestion = action;
        }
        QVERIFY(suggestion);
        QVERIFY(menu->findChild<QAction *>(QStringLiteral("spellingAddToDictionary")));
        suggestion->trigger();
        QCOMPARE(text->toPlainText(), QStringLiteral("the quick fox and Zorblax"));
        text->undo(); // one step back to what was typed
        QCOMPARE(text->toPlainText(), QStringLiteral("the quikc fox and Zorblax"));

        // A correct word has no spelling entries; "Add to dictionary" accepts a new one.
        menu.reset(editor.createContextMenu(pointAt(1)));
        QVERIFY(!menu->findChild<QAction *>(QStringLiteral("spellingAddToDictionary")));
        const int zorblax = int(text->toPlainText().indexOf(QStringLiteral("Zorblax")));
        QTRY_VERIFY_WITH_TIMEOUT(
            editor.highlighter()->isMisspelled(text->document()->firstBlock(), zorblax), 10000);
        menu.reset(editor.createContextMenu(pointAt(zorblax + 2)));
        auto *add = menu->findChild<QAction *>(QStringLiteral("spellingAddToDictionary"));
        QVERIFY(add);
        add->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            !editor.highlighter()->isMisspelled(text->document()->firstBlock(), zorblax), 10000);
        QFile personal(profile.filePath(QStringLiteral("dictionary.txt")));
        QVERIFY(personal.open(QIODevice::ReadOnly));
        QCOMPARE(personal.readAll(), QByteArray("Zorblax\n"));
    }
};

QTEST_MAIN(SpellingTest)
#include "test_spelling.moc"
