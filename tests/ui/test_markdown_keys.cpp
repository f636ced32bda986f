// The Markdown editor's writing keys (issue 31 item 7), as other Markdown editors have them: Enter
// continues a list and ends it on an empty item, Ctrl+B / Ctrl+I wrap the selection (and unwrap
// it), Ctrl+K makes a link with its address selected, Tab / Shift+Tab indent and outdent list items
// while Tab elsewhere still types a tab. Each of these edits is one undo step. Words and lines are
// counted beside the size.

#include "ui/CanvasEditor.h"
#include "ui/ShortcutsDialog.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QTest>
#include <QTextCursor>

#include <memory>

using namespace buzz::ui;

class MarkdownKeysTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<CanvasEditor> m_pane;
    QPlainTextEdit *m_editor = nullptr;

    // Loads text and puts the caret (and anchor) at the given offsets.
    void load(const QString &text, int position, int anchor = -1)
    {
        m_pane->loadText(text);
        QTextCursor cursor = m_editor->textCursor();
        cursor.setPosition(anchor < 0 ? position : anchor);
        cursor.setPosition(position, QTextCursor::KeepAnchor);
        m_editor->setTextCursor(cursor);
    }
    void key(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(m_editor, key, modifiers);
    }
    QString text() const { return m_editor->toPlainText(); }
    QString selected() const { return m_editor->textCursor().selectedText(); }

private slots:
    void init()
    {
        m_pane = std::make_unique<CanvasEditor>();
        m_pane->resize(800, 500);
        m_pane->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_pane.get(), 30000));
        m_editor = m_pane->findChild<QPlainTextEdit *>(QStringLiteral("canvasEditor"));
        QVERIFY(m_editor);
        m_editor->setFocus();
    }
    void cleanup() { m_pane.reset(); }

    void enterContinuesAList()
    {
        load(QString(), 0);
        QTest::keyClicks(m_editor, QStringLiteral("- one"));
        key(Qt::Key_Return);
        QCOMPARE(text(), QStringLiteral("- one\n- "));
        QTest::keyClicks(m_editor, QStringLiteral("two"));
        key(Qt::Key_Return);
        key(Qt::Key_Return); // on the empty item: the list ends, its marker goes
        QCOMPARE(text(), QStringLiteral("- one\n- two\n"));
        QTest::keyClicks(m_editor, QStringLiteral("after"));
        QCOMPARE(text(), QStringLiteral("- one\n- two\nafter"));
        // Each Enter was one undo step, the typed words separate ones.
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- one\n- two\n"));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- one\n- two\n- "));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- one\n- two"));

        const struct
        {
            QString line;
            QString next;
        } cases[] = {
            {QStringLiteral("* star"), QStringLiteral("* ")},
            {QStringLiteral("+ plus"), QStringLiteral("+ ")},
            {QStringLiteral("1. first"), QStringLiteral("2. ")},
            {QStringLiteral("9) ninth"), QStringLiteral("10) ")},
            {QStringLiteral("- [x] done"), QStringLiteral("- [ ] ")},
            {QStringLiteral("- [ ] todo"), QStringLiteral("- [ ] ")},
            {QStringLiteral("    - nested"), QStringLiteral("    - ")},
        };
        for (const auto &c : cases) {
            load(c.line, int(c.line.size()));
            key(Qt::Key_Return);
            QCOMPARE(text(), c.line + QLatin1Char('\n') + c.next);
        }
        load(QStringLiteral("3. "), 3); // an empty numbered item ends its list too
        key(Qt::Key_Return);
        QCOMPARE(text(), QString());

        // In the middle of an item's text the rest becomes the next item.
        load(QStringLiteral("- abcdef"), 5);
        key(Qt::Key_Return);
        QCOMPARE(text(), QStringLiteral("- abc\n- def"));
        QCOMPARE(m_editor->textCursor().position(), 8);
        // Outside a list, and before an item's text, Enter is a plain new line.
        load(QStringLiteral("plain"), 5);
        key(Qt::Key_Return);
        QCOMPARE(text(), QStringLiteral("plain\n"));
        load(QStringLiteral("- item"), 0);
        key(Qt::Key_Return);
        QCOMPARE(text(), QStringLiteral("\n- item"));
        load(QStringLiteral("---"), 3); // a rule, not a list
        key(Qt::Key_Return);
        QCOMPARE(text(), QStringLiteral("---\n"));
    }

    void boldItalicAndLink()
    {
        load(QStringLiteral("say word now"), 8, 4); // "word" selected
        key(Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("say **word** now"));
        QCOMPARE(selected(), QStringLiteral("word"));
        key(Qt::Key_I, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("say ***word*** now"));
        key(Qt::Key_B, Qt::ControlModifier); // again: unwraps
        QCOMPARE(text(), QStringLiteral("say *word* now"));
        QCOMPARE(selected(), QStringLiteral("word"));
        key(Qt::Key_I, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("say word now"));
        m_editor->undo(); // one step each
        QCOMPARE(text(), QStringLiteral("say *word* now"));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("say ***word*** now"));

        // A selection's spaces stay outside the markers ("**word **" is not bold).
        load(QStringLiteral("a word b"), 7, 1); // " word "
        key(Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("a **word** b"));
        // Without a selection the markers go around the caret.
        load(QStringLiteral("ab"), 1);
        key(Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("a****b"));
        QCOMPARE(m_editor->textCursor().position(), 3);
        QTest::keyClicks(m_editor, QStringLiteral("x"));
        QCOMPARE(text(), QStringLiteral("a**x**b"));
        load(QStringLiteral("ab"), 1);
        key(Qt::Key_I, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("a**b"));
        QCOMPARE(m_editor->textCursor().position(), 2);

        // Ctrl+K: the selection becomes the link's text, its address is selected to be typed.
        load(QStringLiteral("see the site here"), 12, 8);
        key(Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("see the [site](url) here"));
        QCOMPARE(selected(), QStringLiteral("url"));
        QTest::keyClicks(m_editor, QStringLiteral("https://example.org"));
        QCOMPARE(text(), QStringLiteral("see the [site](https://example.org) here"));
        load(QStringLiteral("x "), 2);
        key(Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("x [](url)"));
        QCOMPARE(selected(), QStringLiteral("url"));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("x "));

        // A read-only editor is not changed by them.
        m_pane->setReadOnly(true);
        load(QStringLiteral("word"), 4, 0);
        key(Qt::Key_B, Qt::ControlModifier);
        key(Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(text(), QStringLiteral("word"));
    }

    void tabIndentsListItems()
    {
        load(QStringLiteral("- a\n- b\n- c"), 6);
        key(Qt::Key_Tab); // nests under the item above, at its text
        QCOMPARE(text(), QStringLiteral("- a\n  - b\n- c"));
        QCOMPARE(m_editor->textCursor().position(), 8); // the caret stays after "b"
        key(Qt::Key_Tab); // no item at that depth above: one more of its own marker's width
        QCOMPARE(text(), QStringLiteral("- a\n    - b\n- c"));
        key(Qt::Key_Backtab);
        QCOMPARE(text(), QStringLiteral("- a\n- b\n- c"));
        key(Qt::Key_Tab, Qt::ShiftModifier); // at the margin: stays, focus stays in the editor
        QCOMPARE(text(), QStringLiteral("- a\n- b\n- c"));
        QVERIFY(m_editor->hasFocus());
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- a\n    - b\n- c"));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- a\n  - b\n- c"));

        // Numbered items nest under the text of the one above ("1. " is three wide).
        load(QStringLiteral("1. a\n2. b"), 9);
        key(Qt::Key_Tab);
        QCOMPARE(text(), QStringLiteral("1. a\n   2. b"));
        // A selection over several items moves them together, as one undo step.
        load(QStringLiteral("- a\n- b\n- c\n"), 11, 5);
        key(Qt::Key_Tab);
        QCOMPARE(text(), QStringLiteral("- a\n  - b\n  - c\n"));
        key(Qt::Key_Backtab);
        QCOMPARE(text(), QStringLiteral("- a\n- b\n- c\n"));
        m_editor->undo();
        QCOMPARE(text(), QStringLiteral("- a\n  - b\n  - c\n"));

        // Elsewhere Tab types a tab as it did.
        load(QStringLiteral("plain"), 5);
        key(Qt::Key_Tab);
        QCOMPARE(text(), QStringLiteral("plain\t"));
    }

    void theKeysAreListedInKeyboardShortcuts()
    {
        QWidget window;
        ShortcutsDialog dialog(&window);
        const auto rows = dialog.rows();
        for (const auto &[what, keys] :
             {std::pair {QStringLiteral("Bold (while editing)"), QStringLiteral("Ctrl+B")},
              std::pair {QStringLiteral("Italic (while editing)"), QStringLiteral("Ctrl+I")},
              std::pair {QStringLiteral("Link (while editing)"), QStringLiteral("Ctrl+K")},
              std::pair {QStringLiteral("Indent / outdent a list item"),
                         QStringLiteral("Tab / Shift+Tab")}})
            QVERIFY2(rows.contains(std::pair {what, keys}), qPrintable(what));
    }

    void wordsAndLinesBesideTheSize()
    {
        auto *counts = m_pane->findChild<QLabel *>(QStringLiteral("canvasCountsLabel"));
        QVERIFY(counts);
        QVERIFY(!counts->accessibleName().isEmpty());
        // "-", "#" and "**" are Markdown, not words; the final newline starts no line.
        m_pane->loadText(QStringLiteral("# Title here\n\nSome **bold** text\n- item, two\n"));
        QCOMPARE(counts->text(), QStringLiteral("7 words · 4 lines"));
        QCOMPARE(counts->accessibleDescription(), counts->text());
        QTest::keyClicks(m_editor, QStringLiteral("more "));
        QTRY_COMPARE_WITH_TIMEOUT(counts->text(), QStringLiteral("8 words · 4 lines"), 30000);
        auto *size = m_pane->findChild<QLabel *>(QStringLiteral("canvasSizeLabel"));
        QVERIFY(size->isVisible() && counts->isVisible());
        QCOMPARE(counts->y(), size->y()); // beside the size, on one row
    }
};

QTEST_MAIN(MarkdownKeysTest)
#include "test_markdown_keys.moc"
