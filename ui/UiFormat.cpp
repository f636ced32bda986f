#include "ui/UiFormat.h"

#include "canvas/ProfileCache.h"
#include "net/nostr/Nip19.h"

#include <QDateTime>

#include <iterator>

namespace buzz::ui {

QString UiFormat::withShortcut(const QString &text, const QKeySequence &keys)
{
    if (keys.isEmpty())
        return text;
    return tr("%1 (%2)").arg(text, keys.toString(QKeySequence::NativeText));
}

namespace {
std::function<qint64()> &clock()
{
    static std::function<qint64()> source;
    return source;
}
} // namespace

qint64 UiFormat::now()
{
    return clock() ? clock()() : QDateTime::currentSecsSinceEpoch();
}

void UiFormat::setClockForTesting(std::function<qint64()> source)
{
    clock() = std::move(source);
}

QLocale UiFormat::locale()
{
    // Asked on every painted time: the locale is rebuilt only when the translation changes.
    static QString cachedName;
    static QLocale cached(QLocale::English, QLocale::UnitedKingdom);
    const QString name = tr("en",
                            "BCP 47 name of this translation's language; "
                            "dates and numbers use its locale");
    if (name != cachedName) {
        cachedName = name;
        cached = name == QLatin1String("en") ? QLocale(QLocale::English, QLocale::UnitedKingdom)
                                             : QLocale(name);
    }
    return cached;
}

QString UiFormat::revisionTime(qint64 unixSeconds)
{
    const QDateTime local = QDateTime::fromSecsSinceEpoch(unixSeconds).toLocalTime();
    return locale().toString(local, QStringLiteral("d MMM yyyy, HH:mm"));
}

QString UiFormat::relativeTime(qint64 unixSeconds, qint64 nowSeconds)
{
    const qint64 age = nowSeconds - unixSeconds;
    if (age < 45)
        return tr("just now"); // also a clock a little ahead of ours
    if (age < 3600)
        return tr("%n min ago", nullptr, int(qMax<qint64>(1, (age + 30) / 60)));
    const QDateTime local = QDateTime::fromSecsSinceEpoch(unixSeconds).toLocalTime();
    const QDate today = QDateTime::fromSecsSinceEpoch(nowSeconds).toLocalTime().date();
    if (age < 12 * 3600 || local.date() == today)
        return tr("%n h ago", nullptr, int(age / 3600));
    if (local.date() == today.addDays(-1))
        return tr("yesterday, %1").arg(locale().toString(local.time(), QStringLiteral("HH:mm")));
    return revisionTime(unixSeconds);
}

QString UiFormat::sizeSummary(const QString &text)
{
    const qsizetype lines = text.isEmpty() ? 0 : text.count(QLatin1Char('\n')) + 1;
    const qsizetype bytes = text.toUtf8().size();
    const QString size = bytes < 1024
        ? tr("%1 B").arg(bytes)
        : locale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
    return tr("%n lines · %1", nullptr, int(lines)).arg(size);
}

namespace {

// Cyrillic and Greek letters that look like Latin ones (after case folding): "уоu" in Cyrillic
// reads as "you".
char16_t latinLookalike(char16_t c)
{
    // Cyrillic а е о р с у х і ј ѕ ӏ ԁ ԛ ԝ, Greek α ε ι κ ν ο ρ υ χ.
    static constexpr char16_t from[] = u"\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456"
                                       u"\u0458\u0455\u04cf\u0501\u051b\u051d\u03b1\u03b5"
                                       u"\u03b9\u03ba\u03bd\u03bf\u03c1\u03c5\u03c7";
    static constexpr char16_t to[] = u"aeopcyxijsldqwaeikvopux";
    static_assert(sizeof from == sizeof to);
    for (std::size_t i = 0; i + 1 < std::size(from); ++i) {
        if (from[i] == c)
            return to[i];
    }
    return c;
}

// A name as a reader compares names at a glance: only letters and digits count, without accents,
// case, compatibility forms (full-width letters), look-alike Cyrillic or Greek letters, spacing,
// punctuation or invisible characters (zero-width spaces, bidi marks). Too loose is harmless:
// a name that matches only gets its npub beside it. A name of no letters or digits (emoji) is
// compared whole, spacing and invisible characters aside.
QString comparable(const QString &name)
{
    const QString folded = name.normalized(QString::NormalizationForm_KD).toCaseFolded();
    QString kept;
    QString visible;
    for (const QChar c : folded) {
        if (c.isLetterOrNumber())
            kept += QChar(latinLookalike(c.unicode()));
        if (c.category() != QChar::Other_Format && c.category() != QChar::Other_Control)
            visible += c;
    }
    return kept.isEmpty() ? visible.simplified() : kept;
}

} // namespace

bool UiFormat::couldPassForSelf(canvas::ProfileCache *profiles, const QString &name)
{
    const QString shown = comparable(name);
    if (shown.isEmpty())
        return false;
    // How the app names the user ("You", "you" in "Last edited by you"), in English and in the UI's
    // language, and the user's own profile name.
    QStringList own {QStringLiteral("you"), tr("You"),
                     tr("you", "the signed-in user as \"Last edited by you\" names them")};
    const QString self = profiles ? profiles->selfPubkey() : QString();
    if (!self.isEmpty()) {
        own << profiles->displayName(self);
        if (const auto profile = profiles->profile(self))
            own << profile->displayName << profile->name;
    }
    for (const QString &word : own) {
        if (comparable(word) == shown)
            return true;
    }
    return false;
}

QString UiFormat::personName(canvas::ProfileCache *profiles, const QString &pubkey)
{
    const QString shortNpub =
        QString::fromStdString(nostr::nip19::shortNpub(pubkey.toLower().toStdString()));
    if (!profiles)
        return shortNpub;
    // Own revisions are recognised by key, never by name.
    if (profiles->isSelf(pubkey))
        return tr("You");
    const QString name = profiles->displayName(pubkey);
    if (name != shortNpub && couldPassForSelf(profiles, name))
        return tr("%1 (%2)", "someone else whose name could pass for the user's: name (short npub)")
            .arg(name, shortNpub);
    return name;
}

QString UiFormat::personToolTip(canvas::ProfileCache *profiles, const QString &pubkey)
{
    const QString npub =
        QString::fromStdString(nostr::nip19::encodeNpub(pubkey.toLower().toStdString()));
    if (!profiles)
        return npub;
    const QString name = profiles->displayName(pubkey);
    const QString who = profiles->isSelf(pubkey) ? tr("%1 (you)").arg(name) : name;
    return who + QLatin1Char('\n') + npub;
}

} // namespace buzz::ui
