#include "ui/highlight/codehighlighter.h"

namespace lizard::ui::highlight {

namespace {

QSet<QString> words(std::initializer_list<const char*> list)
{
    QSet<QString> set;
    for (const char* w : list)
        set.insert(QString::fromLatin1(w));
    return set;
}

WordLists python()
{
    return {
        words({"False",   "None",     "True",     "and",    "as",   "assert", "async",  "await",
               "break",   "class",    "continue", "def",    "del",  "elif",   "else",   "except",
               "finally", "for",      "from",     "global", "if",   "import", "in",     "is",
               "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return", "try",
               "while",   "with",     "yield",    "match",  "case"}),
        words({"abs",          "all",           "any",
               "bool",         "bytes",         "callable",
               "chr",          "dict",          "dir",
               "divmod",       "enumerate",     "eval",
               "exec",         "filter",        "float",
               "format",       "frozenset",     "getattr",
               "globals",      "hasattr",       "hash",
               "help",         "hex",           "id",
               "input",        "int",           "isinstance",
               "issubclass",   "iter",          "len",
               "list",         "locals",        "map",
               "max",          "min",           "next",
               "object",       "open",          "ord",
               "pow",          "print",         "property",
               "range",        "repr",          "reversed",
               "round",        "set",           "setattr",
               "slice",        "sorted",        "staticmethod",
               "classmethod",  "str",           "sum",
               "super",        "tuple",         "type",
               "vars",         "zip",           "self",
               "cls",          "Exception",     "ValueError",
               "TypeError",    "KeyError",      "IndexError",
               "RuntimeError", "StopIteration", "ZeroDivisionError"}),
        words({"def", "class"})};
}

WordLists javascript()
{
    return {words({"async",    "await",      "break",   "case",   "catch",    "class", "const",
                   "continue", "debugger",   "default", "delete", "do",       "else",  "export",
                   "extends",  "false",      "finally", "for",    "function", "if",    "import",
                   "in",       "instanceof", "let",     "new",    "null",     "of",    "return",
                   "static",   "super",      "switch",  "this",   "throw",    "true",  "try",
                   "typeof",   "undefined",  "var",     "void",   "while",    "with",  "yield",
                   "from"}),
            words({"Array",   "Boolean",    "Date",     "Error",      "JSON",       "Map",
                   "Math",    "Number",     "Object",   "Promise",    "RegExp",     "Set",
                   "String",  "Symbol",     "console",  "process",    "require",    "module",
                   "exports", "globalThis", "parseInt", "parseFloat", "setTimeout", "setInterval",
                   "Buffer",  "NaN",        "Infinity"}),
            words({"function", "class"})};
}

WordLists bash()
{
    return {words({"if",      "then",     "else",   "elif",  "fi",       "case",  "esac",
                   "for",     "while",    "until",  "do",    "done",     "in",    "function",
                   "select",  "time",     "return", "break", "continue", "local", "export",
                   "declare", "readonly", "unset",  "shift", "exit"}),
            words({"echo",  "printf",  "cd",   "pwd",     "read",  "source", "test", "true",
                   "false", "set",     "eval", "exec",    "trap",  "wait",   "kill", "alias",
                   "type",  "command", "cat",  "ls",      "grep",  "sed",    "awk",  "mkdir",
                   "rm",    "cp",      "mv",   "find",    "xargs", "sort",   "head", "tail",
                   "wc",    "tr",      "cut",  "python3", "pip",   "curl"}),
            words({"function"})};
}

} // namespace

const WordLists& wordLists(Language language)
{
    static const WordLists py = python();
    static const WordLists js = javascript();
    static const WordLists sh = bash();
    static const WordLists none;
    switch (language) {
    case Language::Python:
        return py;
    case Language::JavaScript:
        return js;
    case Language::Bash:
        return sh;
    default:
        return none;
    }
}

} // namespace lizard::ui::highlight
