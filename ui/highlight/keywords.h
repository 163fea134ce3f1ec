#pragma once
// Keyword and builtin word lists of the languages the built-in code highlighter knows.

#include "ui/highlight/language.h"

#include <QSet>
#include <QString>

namespace lizard::ui::highlight {

struct WordLists
{
    QSet<QString> keywords;
    QSet<QString> builtins;
    QSet<QString> definers; // keywords followed by a name being defined (def, class, function)
};

const WordLists& wordLists(Language language);

} // namespace lizard::ui::highlight
