#include "ui/ConflictDialog.h"

#include "ui/MonospaceFont.h"
#include "ui/NoticeBanner.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBlock>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace buzz::ui {

namespace {

QPlainTextEdit *monospaceView(const QString &name, const QString &accessible, QWidget *parent,
                              bool readOnly)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setObjectName(name);
    edit->setAccessibleName(accessible);
    edit->setReadOnly(readOnly);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(MonospaceFont::font());
    return edit;
}

QGroupBox *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(content);
    return box;
}

} // namespace

ConflictDialog::ConflictDialog(Input input, QWidget *parent)
    : QDialog(parent)
    , m_input(std::move(input))
    , m_merge(canvas::Merge3::merge(m_input.baseText, m_input.mineText, m_input.theirsText))
    , m_summary(new QLabel(this))
    , m_hunkList(new QListWidget(this))
    , m_changeList(new QListWidget(this))
    , m_baseHunk(monospaceView(QStringLiteral("baseHunkText"), tr("The common base of this part"),
                               this, true))
    , m_mineHunk(monospaceView(QStringLiteral("mineHunkText"), tr("Your version of this part"),
                               this, true))
    , m_theirsHunk(monospaceView(QStringLiteral("theirsHunkText"), tr("Their version of this part"),
                                 this, true))
    , m_choiceGroup(new QButtonGroup(this))
    , m_result(monospaceView(QStringLiteral("mergedResultEdit"), tr("Merged result"), this, false))
    , m_progress(new QLabel(this))
    , m_overwriteConfirm(new NoticeBanner(QStringLiteral("mergeOverwriteConfirm"), this))
{
    setObjectName(QStringLiteral("conflictDialog"));
    setAccessibleName(tr("Merge your edit"));
    setWindowTitle(tr("Merge your edit"));
    resize(1000, 680);

    for (std::size_t i = 0; i < m_merge.hunks.size(); ++i) {
        if (m_merge.hunks[i].conflicting())
            m_conflicts.push_back(int(i));
    }
    m_choices.assign(m_conflicts.size(), -1);
    // Hunks are short: wrap them so a long Markdown paragraph is readable side by side.
    m_baseHunk->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_baseHunk->setPlaceholderText(tr("(nothing: both of you added text here)"));
    m_mineHunk->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_theirsHunk->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_result->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    m_summary->setObjectName(QStringLiteral("conflictSummaryLabel"));
    m_summary->setWordWrap(true);
    updateSummary();

    // Side-by-side resolution of the conflicting hunks.
    m_hunkList->setObjectName(QStringLiteral("conflictHunkList"));
    m_hunkList->setAccessibleName(tr("Conflicting parts"));
    for (std::size_t i = 0; i < m_conflicts.size(); ++i) {
        const auto &hunk = m_merge.hunks[std::size_t(m_conflicts[i])];
        m_hunkList->addItem(tr("Conflict %1 — line %2").arg(i + 1).arg(hunk.baseLine + 1));
    }
    auto *useMine = new QPushButton(tr("Use &mine"), this);
    useMine->setObjectName(QStringLiteral("useMineButton"));
    auto *useTheirs = new QPushButton(tr("Use &theirs"), this);
    useTheirs->setObjectName(QStringLiteral("useTheirsButton"));
    auto *useBoth = new QPushButton(tr("Use &both (mine first)"), this);
    useBoth->setObjectName(QStringLiteral("useBothButton"));
    const std::pair<QPushButton *, canvas::MergeResult::Choice> choiceButtons[] = {
        {useMine, canvas::MergeResult::Choice::Mine},
        {useTheirs, canvas::MergeResult::Choice::Theirs},
        {useBoth, canvas::MergeResult::Choice::MineThenTheirs},
    };
    for (const auto &[button, choice] : choiceButtons) {
        button->setCheckable(true);
        button->setAccessibleName(button->text().remove(QLatin1Char('&')));
        m_choiceGroup->addButton(button, int(choice));
    }
    m_choiceGroup->setExclusive(true);
    connect(m_choiceGroup, &QButtonGroup::idClicked, this, [this](int id) {
        replaceResult([this, id] { choose(canvas::MergeResult::Choice(id)); });
    });
    connect(m_hunkList, &QListWidget::currentRowChanged, this, &ConflictDialog::showConflict);

    auto *sides = new QSplitter(Qt::Horizontal, this);
    auto *baseBox = titled(tr("Base"), m_baseHunk, sides);
    baseBox->setToolTip(tr("This part as it was before either of you changed it"));
    sides->addWidget(baseBox);
    sides->addWidget(titled(tr("Mine"), m_mineHunk, sides));
    m_theirsBox = titled(tr("Theirs — %1").arg(m_input.theirsAuthor), m_theirsHunk, sides);
    m_theirsBox->setToolTip(m_input.theirsToolTip);
    sides->addWidget(m_theirsBox);
    auto *choiceRow = new QHBoxLayout;
    choiceRow->addWidget(useMine);
    choiceRow->addWidget(useTheirs);
    choiceRow->addWidget(useBoth);
    choiceRow->addStretch(1);
    auto *hunkPane = new QWidget(this);
    auto *hunkLayout = new QVBoxLayout(hunkPane);
    hunkLayout->setContentsMargins(0, 0, 0, 0);
    auto *hunkRow = new QHBoxLayout;
    m_hunkList->setMaximumWidth(200);
    hunkRow->addWidget(m_hunkList);
    hunkRow->addWidget(sides, 1);
    hunkLayout->addLayout(hunkRow, 1);
    hunkLayout->addLayout(choiceRow);
    hunkPane->setVisible(!m_conflicts.empty());

    m_result->setPlainText(m_merge.text);
    // Only the user's typing reaches this: the dialog's own rewrites block the signal.
    connect(m_result, &QPlainTextEdit::textChanged, this, [this] {
        m_resultEdited = true;
        updateAcceptState();
    });

    m_overwriteConfirm->setClosable(false);
    m_overwriteConfirm->addAction(QStringLiteral("Replace"), tr("&Replace my edit"));
    m_overwriteConfirm->addAction(QStringLiteral("Keep"), tr("&Keep my edit"));
    connect(m_overwriteConfirm->action(QStringLiteral("Replace")), &QPushButton::clicked, this,
            [this] {
                m_overwriteConfirm->hide();
                if (auto replace = std::exchange(m_pendingReplace, {}))
                    replace();
            });
    connect(m_overwriteConfirm->action(QStringLiteral("Keep")), &QPushButton::clicked, this,
            [this] {
                m_overwriteConfirm->hide();
                m_pendingReplace = {};
                showConflict(m_current); // the buttons show the recorded choice again
                m_result->setFocus();
            });

    m_progress->setObjectName(QStringLiteral("conflictProgressLabel"));

    auto *buttons = new QDialogButtonBox(this);
    m_accept =
        buttons->addButton(m_input.acceptLabel.isEmpty() ? tr("Save merge") : m_input.acceptLabel,
                           QDialogButtonBox::AcceptRole);
    m_accept->setObjectName(QStringLiteral("acceptMergeButton"));
    m_accept->setAccessibleName(m_accept->text());
    m_accept->setDefault(true);
    auto *keepMine =
        buttons->addButton(tr("Keep mine on top of theirs"), QDialogButtonBox::ActionRole);
    keepMine->setObjectName(QStringLiteral("keepMineButton"));
    keepMine->setAccessibleName(keepMine->text());
    keepMine->setToolTip(tr("Save your whole text as the next revision after theirs. Their "
                            "revision stays in History."));
    auto *takeTheirs = buttons->addButton(tr("Take theirs"), QDialogButtonBox::ActionRole);
    takeTheirs->setObjectName(QStringLiteral("takeTheirsButton"));
    takeTheirs->setAccessibleName(takeTheirs->text());
    takeTheirs->setToolTip(
        tr("Continue from their revision. Your text stays recoverable with Undo and as a draft."));
    auto *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelMergeButton"));
    cancel->setAccessibleName(tr("Cancel"));
    cancel->setToolTip(tr("Close without changing your editor"));
    connect(m_accept, &QPushButton::clicked, this, [this] { finish(Resolution::Merged); });
    connect(keepMine, &QPushButton::clicked, this,
            [this] { replaceResult([this] { finish(Resolution::KeepMine); }); });
    connect(takeTheirs, &QPushButton::clicked, this,
            [this] { replaceResult([this] { finish(Resolution::TakeTheirs); }); });
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);

    m_changeList->setObjectName(QStringLiteral("mergeChangeList"));
    m_changeList->setAccessibleName(tr("Changes in the merge and whose they are"));
    m_changeList->setVisible(m_conflicts.empty());
    connect(m_changeList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (auto *item = m_changeList->item(row))
            scrollResultToLine(item->data(Qt::UserRole).toInt());
    });

    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(hunkPane);
    vertical->addWidget(m_changeList);
    vertical->addWidget(titled(tr("Result"), m_result, vertical));
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(vertical, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_overwriteConfirm);
    layout->addWidget(buttons);

    rebuildResult();
    listCleanChanges();
    // Opens at the first conflict: the list selects it, the result scrolls to it.
    if (!m_conflicts.empty())
        m_hunkList->setCurrentRow(0);
}

void ConflictDialog::listCleanChanges()
{
    using Owner = canvas::MergeResult::Change::Owner;
    const QPalette palette = m_result->palette();
    const QColor base = palette.color(QPalette::Base);
    const auto tint = [&](QColor accent) {
        return QColor::fromRgbF(base.redF() * 0.8 + accent.redF() * 0.2,
                                base.greenF() * 0.8 + accent.greenF() * 0.2,
                                base.blueF() * 0.8 + accent.blueF() * 0.2);
    };
    QList<QTextEdit::ExtraSelection> marks;
    for (const canvas::MergeResult::Change &change : m_merge.changes()) {
        const QString whose = change.owner == Owner::Mine ? tr("your change")
            : change.owner == Owner::Theirs ? tr("%1's change").arg(m_input.theirsAuthor)
                                            : tr("made by both of you");
        const QString where = change.lineCount == 0
            ? tr("Removed before line %1").arg(change.firstLine + 1)
            : change.lineCount == 1
            ? tr("Line %1").arg(change.firstLine + 1)
            : tr("Lines %1–%2").arg(change.firstLine + 1).arg(change.firstLine + change.lineCount);
        auto *item = new QListWidgetItem(tr("%1: %2").arg(where, whose), m_changeList);
        item->setData(Qt::UserRole, change.firstLine);
        const QColor color = change.owner == Owner::Mine ? QColor(39, 174, 96)
            : change.owner == Owner::Theirs              ? QColor(41, 128, 185)
                                                         : QColor(142, 68, 173);
        item->setBackground(tint(color));
        for (int line = change.firstLine; line < change.firstLine + change.lineCount; ++line) {
            QTextEdit::ExtraSelection mark;
            mark.cursor = QTextCursor(m_result->document()->findBlockByNumber(line));
            mark.format.setBackground(tint(color));
            mark.format.setProperty(QTextFormat::FullWidthSelection, true);
            mark.format.setToolTip(whose);
            marks << mark;
        }
    }
    m_result->setExtraSelections(marks);
    if (m_changeList->count() == 0)
        m_changeList->hide();
}

int ConflictDialog::resultLineOfConflict(int index) const
{
    if (m_resultEdited || index < 0 || index >= int(m_conflicts.size()))
        return -1;
    using Choice = canvas::MergeResult::Choice;
    const bool allOpen = unresolvedCount() == int(m_conflicts.size());
    int line = 0;
    int conflict = 0;
    for (const canvas::MergeHunk &hunk : m_merge.hunks) {
        if (!hunk.conflicting()) {
            line += int(hunk.resolved().size());
            continue;
        }
        if (conflict == index)
            return line;
        const int choice = m_choices[std::size_t(conflict++)];
        const int mine = int(hunk.mine.size()), theirs = int(hunk.theirs.size());
        if (choice < 0) // markers: "<<<<<<< mine", mine, ("||||||| base", base,) "=======", ...
            line += 3 + mine + theirs + (allOpen ? 1 + int(hunk.base.size()) : 0);
        else if (choice == int(Choice::Mine))
            line += mine;
        else if (choice == int(Choice::Theirs))
            line += theirs;
        else
            line += mine + theirs;
    }
    return -1;
}

void ConflictDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    // Centring needs the real viewport: the first conflict again, now that it has one.
    if (!m_conflicts.empty())
        scrollResultToLine(resultLineOfConflict(std::max(m_current, 0)));
}

void ConflictDialog::scrollResultToLine(int line)
{
    const QTextBlock block = m_result->document()->findBlockByNumber(line);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    m_result->setTextCursor(cursor);
    m_result->centerCursor();
}

int ConflictDialog::unresolvedCount() const
{
    return int(std::count(m_choices.begin(), m_choices.end(), -1));
}

void ConflictDialog::setTheirsAuthor(const QString &name, const QString &toolTip)
{
    m_input.theirsAuthor = name;
    m_input.theirsToolTip = toolTip;
    updateSummary();
}

void ConflictDialog::updateSummary()
{
    const QString who =
        tr("%1 saved a newer revision (%2)").arg(m_input.theirsAuthor, m_input.theirsTime);
    if (m_merge.clean()) {
        m_summary->setText(
            tr("<b>%1.</b> Your changes and theirs merge cleanly — review the result "
               "below and save it.")
                .arg(who.toHtmlEscaped()));
    } else {
        const QString escaped = who.toHtmlEscaped();
        m_summary->setText(
            m_conflicts.size() == 1
                ? tr("<b>%1.</b> One part of the canvas was changed by both of you. Pick a "
                     "version for it, or edit the result directly.")
                      .arg(escaped)
                : tr("<b>%1.</b> %2 parts of the canvas were changed by both of you. Pick a "
                     "version for each, or edit the result directly.")
                      .arg(escaped)
                      .arg(m_conflicts.size()));
    }

    m_summary->setToolTip(m_input.theirsToolTip);
    if (m_theirsBox) {
        m_theirsBox->setTitle(tr("Theirs — %1").arg(m_input.theirsAuthor));
        m_theirsBox->setToolTip(m_input.theirsToolTip);
    }
}

QString ConflictDialog::resultText() const
{
    switch (m_resolution) {
    case Resolution::KeepMine:
        return m_input.mineText;
    case Resolution::TakeTheirs:
        return m_input.theirsText;
    case Resolution::Merged:
    case Resolution::None:
        return m_result->toPlainText();
    }
    return m_result->toPlainText();
}

void ConflictDialog::showConflict(int index)
{
    m_current = index;
    if (index < 0 || index >= int(m_conflicts.size()))
        return;
    const auto &hunk = m_merge.hunks[std::size_t(m_conflicts[std::size_t(index)])];
    m_baseHunk->setPlainText(hunk.base.join(QLatin1Char('\n')));
    m_mineHunk->setPlainText(hunk.mine.join(QLatin1Char('\n')));
    m_theirsHunk->setPlainText(hunk.theirs.join(QLatin1Char('\n')));
    scrollResultToLine(resultLineOfConflict(index));
    const int choice = m_choices[std::size_t(index)];
    if (choice < 0) {
        m_choiceGroup->setExclusive(false);
        for (auto *button : m_choiceGroup->buttons())
            button->setChecked(false);
        m_choiceGroup->setExclusive(true);
    } else if (auto *button = m_choiceGroup->button(choice)) {
        button->setChecked(true);
    }
}

void ConflictDialog::choose(canvas::MergeResult::Choice choice)
{
    if (m_current < 0 || m_current >= int(m_choices.size()))
        return;
    m_choices[std::size_t(m_current)] = int(choice);
    if (auto *item = m_hunkList->item(m_current)) {
        const QString name = choice == canvas::MergeResult::Choice::Mine ? tr("mine")
            : choice == canvas::MergeResult::Choice::Theirs              ? tr("theirs")
                                                                         : tr("both");
        item->setText(tr("Conflict %1 — %2").arg(m_current + 1).arg(name));
    }
    rebuildResult();
    // Move on to the next unresolved conflict, like a merge tool.
    for (int i = 0; i < int(m_choices.size()); ++i) {
        if (m_choices[std::size_t(i)] < 0) {
            m_hunkList->setCurrentRow(i);
            return;
        }
    }
}

void ConflictDialog::rebuildResult()
{
    if (!m_conflicts.empty()) {
        std::vector<canvas::MergeResult::Choice> choices;
        for (int choice : m_choices)
            choices.push_back(choice < 0 ? canvas::MergeResult::Choice::MineThenTheirs
                                         : canvas::MergeResult::Choice(choice));
        // Unresolved hunks keep their conflict markers in the result so nothing is hidden.
        if (unresolvedCount() > 0) {
            const QSignalBlocker blocker(m_result);
            m_result->setPlainText(m_merge.text);
            if (unresolvedCount() < int(m_conflicts.size())) {
                // Partially resolved: show resolved choices, markers for the rest.
                QStringList hunkTexts;
                int conflict = 0;
                for (std::size_t i = 0; i < m_merge.hunks.size(); ++i) {
                    if (!m_merge.hunks[i].conflicting())
                        continue;
                    const int choice = m_choices[std::size_t(conflict++)];
                    const auto &hunk = m_merge.hunks[i];
                    if (choice < 0) {
                        QStringList marked;
                        marked << QStringLiteral("<<<<<<< mine") << hunk.mine
                               << QStringLiteral("=======") << hunk.theirs
                               << QStringLiteral(">>>>>>> theirs");
                        hunkTexts << marked.join(QLatin1Char('\n'));
                    } else if (choice == int(canvas::MergeResult::Choice::Mine)) {
                        hunkTexts << hunk.mine.join(QLatin1Char('\n'));
                    } else if (choice == int(canvas::MergeResult::Choice::Theirs)) {
                        hunkTexts << hunk.theirs.join(QLatin1Char('\n'));
                    } else {
                        hunkTexts << (hunk.mine + hunk.theirs).join(QLatin1Char('\n'));
                    }
                }
                m_result->setPlainText(m_merge.resolveWithText(hunkTexts));
            }
        } else {
            const QSignalBlocker blocker(m_result);
            m_result->setPlainText(m_merge.resolve(choices));
        }
        m_resultEdited = false;
    }
    updateAcceptState();
}

void ConflictDialog::updateAcceptState()
{
    if (m_resultEdited) {
        // A hand-written result is a resolution, once no conflict marker is left in it ("======="
        // alone is a Markdown heading underline, so only the outer markers count).
        const QString text = m_result->toPlainText();
        const bool markers = text.contains(QLatin1String("<<<<<<< mine"))
            || text.contains(QLatin1String(">>>>>>> theirs"));
        m_accept->setEnabled(!markers);
        m_progress->setText(markers ? tr("Remove the conflict markers (<<<<<<<, =======, >>>>>>>) "
                                         "from the result to save your edit.")
                                    : tr("Result edited by hand: ready to save."));
        return;
    }
    const int open = unresolvedCount();
    m_accept->setEnabled(open == 0);
    m_progress->setText(open == 0
                            ? (m_conflicts.empty() ? tr("Clean merge: ready to save.")
                                                   : tr("All conflicts resolved: ready to save."))
                            : (open == 1 ? tr("1 conflict left to resolve.")
                                         : tr("%1 conflicts left to resolve.").arg(open)));
}

void ConflictDialog::replaceResult(std::function<void()> replace)
{
    if (!m_resultEdited) {
        replace();
        return;
    }
    m_pendingReplace = std::move(replace);
    m_overwriteConfirm->showMessage(
        tr("Replace the result you edited by hand? Your edit of the result is lost."),
        NoticeBanner::Tone::Warning);
    m_overwriteConfirm->action(QStringLiteral("Keep"))->setFocus();
}

void ConflictDialog::finish(Resolution resolution)
{
    m_resolution = resolution;
    accept();
}

} // namespace buzz::ui
