#include "notebook/ansihtml.h"

#include <QStringList>

namespace lizard::notebook {

namespace {

// JupyterLab's ANSI palette: 0-7 normal, 8-15 bright.
const char* const kPalette[16] = {"#3e424d", "#e75c58", "#00a250", "#ddb62b", "#208ffb", "#d160c4",
                                  "#60c6c8", "#c5c1b4", "#282c36", "#b22b31", "#007427", "#b27d12",
                                  "#0065ca", "#a03196", "#258f8f", "#a1a6b2"};

// "#rrggbb" for components 0-255; empty when one is out of range.
QString hexColour(int r, int g, int b)
{
    for (int v : {r, g, b})
        if (v < 0 || v > 255)
            return {};
    return QString::asprintf("#%02x%02x%02x", r, g, b);
}

QString colour256(int n)
{
    if (n < 0 || n > 255)
        return {};
    if (n < 16)
        return QString::fromLatin1(kPalette[n]);
    if (n < 232) {
        const int i = n - 16;
        auto level = [](int v) { return v == 0 ? 0 : 55 + v * 40; };
        return hexColour(level(i / 36), level((i / 6) % 6), level(i % 6));
    }
    const int grey = 8 + (n - 232) * 10;
    return hexColour(grey, grey, grey);
}

struct Style
{
    QString fg, bg;
    bool bold = false, italic = false, underline = false;

    bool plain() const { return fg.isEmpty() && bg.isEmpty() && !bold && !italic && !underline; }
    QString css() const
    {
        QStringList parts;
        if (!fg.isEmpty())
            parts << "color:" + fg;
        if (!bg.isEmpty())
            parts << "background-color:" + bg;
        if (bold)
            parts << QStringLiteral("font-weight:bold");
        if (italic)
            parts << QStringLiteral("font-style:italic");
        if (underline)
            parts << QStringLiteral("text-decoration:underline");
        return parts.join(';');
    }
};

// Extended colour after 38 or 48: "5;n" or "2;r;g;b". Advances i past what it used.
QString extendedColour(const QList<int>& codes, qsizetype& i)
{
    if (i + 1 < codes.size() && codes[i + 1] == 5 && i + 2 < codes.size()) {
        i += 2;
        return colour256(codes[i]);
    }
    if (i + 1 < codes.size() && codes[i + 1] == 2 && i + 4 < codes.size()) {
        const QString c = hexColour(codes[i + 2], codes[i + 3], codes[i + 4]);
        i += 4;
        return c;
    }
    i = codes.size();
    return {};
}

void applySgr(Style& s, const QList<int>& codes)
{
    for (qsizetype i = 0; i < codes.size(); ++i) {
        const int c = codes[i];
        if (c == 0)
            s = Style{};
        else if (c == 1)
            s.bold = true;
        else if (c == 3)
            s.italic = true;
        else if (c == 4)
            s.underline = true;
        else if (c == 22)
            s.bold = false;
        else if (c == 23)
            s.italic = false;
        else if (c == 24)
            s.underline = false;
        else if (c >= 30 && c <= 37)
            s.fg = QString::fromLatin1(kPalette[c - 30]);
        else if (c >= 90 && c <= 97)
            s.fg = QString::fromLatin1(kPalette[c - 90 + 8]);
        else if (c >= 40 && c <= 47)
            s.bg = QString::fromLatin1(kPalette[c - 40]);
        else if (c >= 100 && c <= 107)
            s.bg = QString::fromLatin1(kPalette[c - 100 + 8]);
        else if (c == 39)
            s.fg.clear();
        else if (c == 49)
            s.bg.clear();
        else if (c == 38)
            s.fg = extendedColour(codes, i);
        else if (c == 48)
            s.bg = extendedColour(codes, i);
    }
}

// Walks text; for each escape sequence calls onEscape(final, params), for text onText(chunk).
template <class OnText, class OnEscape>
void scan(const QString& text, OnText onText, OnEscape onEscape)
{
    qsizetype i = 0, start = 0;
    const qsizetype n = text.size();
    while (i < n) {
        if (text[i] != QChar(0x1b)) {
            ++i;
            continue;
        }
        if (i > start)
            onText(text.mid(start, i - start));
        qsizetype j = i + 1;
        if (j < n && text[j] == u'[') {
            ++j;
            const qsizetype paramStart = j;
            while (j < n && (text[j].unicode() < 0x40 || text[j].unicode() > 0x7e))
                ++j;
            if (j < n) {
                onEscape(text[j], text.mid(paramStart, j - paramStart));
                ++j;
            }
        } else if (j < n && text[j] == u']') {
            // OSC: up to BEL or ESC backslash.
            while (j < n && text[j] != QChar(0x07) &&
                   !(text[j] == QChar(0x1b) && j + 1 < n && text[j + 1] == u'\\'))
                ++j;
            j = j < n && text[j] == QChar(0x07) ? j + 1 : std::min(n, j + 2);
        } else if (j < n) {
            ++j; // two-character escape
        }
        i = start = j;
    }
    if (start < n)
        onText(text.mid(start));
}

} // namespace

QString ansiToHtml(const QString& text)
{
    QString html;
    Style style;
    scan(
        text,
        [&](const QString& chunk) {
            const QString escaped = chunk.toHtmlEscaped();
            if (style.plain())
                html += escaped;
            else
                html += "<span style=\"" + style.css() + "\">" + escaped + "</span>";
        },
        [&](QChar final, const QString& params) {
            if (final != u'm')
                return;
            QList<int> codes;
            for (const QString& p : params.split(u';'))
                codes << (p.isEmpty() ? 0 : p.toInt());
            applySgr(style, codes);
        });
    return html;
}

QString ansiToHtmlDocument(const QString& text)
{
    return "<pre style=\"font-family:monospace;margin:0\">" + ansiToHtml(text) + "</pre>";
}

QString stripAnsi(const QString& text)
{
    QString out;
    scan(
        text, [&](const QString& chunk) { out += chunk; }, [](QChar, const QString&) {});
    return out;
}

} // namespace lizard::notebook
