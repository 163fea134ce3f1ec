#include "sandboxes/templates/recipe.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <regex>
#include <set>

namespace lizard::sandboxes {

namespace {

Error recipeError(int line, const std::string& what)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_RECIPE",
                 line > 0 ? "line " + std::to_string(line) + ": " + what : what};
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

int indentOf(std::string_view s)
{
    int n = 0;
    while (n < int(s.size()) && s[size_t(n)] == ' ')
        ++n;
    return n;
}

bool blankOrComment(std::string_view s)
{
    s = trim(s);
    return s.empty() || s.front() == '#';
}

// One scalar from the start of `s`; the rest of the line may only be a comment. Quoted
// scalars keep what is in their quotes; plain ones end at " #".
Result<std::string> scalar(std::string_view s, int line)
{
    s = trim(s);
    if (s.empty())
        return std::string();
    std::string out;
    size_t end = 0;
    if (s.front() == '\'') {
        size_t i = 1;
        for (;; ++i) {
            if (i >= s.size())
                return recipeError(line, "a quote (') is not closed");
            if (s[i] == '\'') {
                if (i + 1 < s.size() && s[i + 1] == '\'') {
                    out += '\'';
                    ++i;
                    continue;
                }
                break;
            }
            out += s[i];
        }
        end = i + 1;
    } else if (s.front() == '"') {
        size_t i = 1;
        for (;; ++i) {
            if (i >= s.size())
                return recipeError(line, "a quote (\") is not closed");
            const char c = s[i];
            if (c == '"')
                break;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (++i >= s.size())
                return recipeError(line, "a quote (\") is not closed");
            switch (s[i]) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            default:
                return recipeError(line, std::string("unknown escape \\") + s[i] +
                                             " in a double-quoted value");
            }
        }
        end = i + 1;
    } else {
        static const std::string_view kReserved = "{}&*!%@`>?";
        if (kReserved.find(s.front()) != std::string_view::npos)
            return recipeError(line, std::string("a value may not start with '") + s.front() +
                                         "' here (quote it; for several lines use |)");
        size_t hash = std::string_view::npos;
        for (size_t i = 1; i < s.size(); ++i) {
            if (s[i] == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
                hash = i;
                break;
            }
        }
        return std::string(trim(s.substr(0, hash)));
    }
    const std::string_view rest = trim(s.substr(end));
    if (!rest.empty() && rest.front() != '#')
        return recipeError(line, "unexpected text after a quoted value");
    return out;
}

// "[a, 'b, c', d]" → its scalars.
Result<std::vector<std::string>> flowList(std::string_view s, int line)
{
    s = trim(s);
    std::vector<std::string> out;
    size_t i = 1; // after '['
    std::string_view body;
    {
        char quote = 0;
        size_t close = std::string_view::npos;
        for (size_t j = 1; j < s.size(); ++j) {
            const char c = s[j];
            if (quote) {
                if (c == quote)
                    quote = 0;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '[' || c == '{') {
                return recipeError(line, "lists inside lists are not read here");
            } else if (c == ']') {
                close = j;
                break;
            }
        }
        if (close == std::string_view::npos)
            return recipeError(line, "a list ([) is not closed on its line");
        const std::string_view rest = trim(s.substr(close + 1));
        if (!rest.empty() && rest.front() != '#')
            return recipeError(line, "unexpected text after a list");
        body = s.substr(i, close - i);
    }
    if (trim(body).empty())
        return out;
    char quote = 0;
    size_t start = 0;
    for (size_t j = 0; j <= body.size(); ++j) {
        const char c = j < body.size() ? body[j] : ',';
        if (quote) {
            if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            continue;
        }
        if (c != ',')
            continue;
        auto item = scalar(body.substr(start, j - start), line);
        if (!item)
            return item.error();
        if (item->empty())
            return recipeError(line, "an empty item in a list");
        out.push_back(std::move(*item));
        start = j + 1;
    }
    return out;
}

// The value of a key: a scalar, a list of scalars or a map of scalars, each with its line.
struct Value
{
    enum class Shape { Scalar, List, Map } shape = Shape::Scalar;
    int line = 0;
    std::string scalar;
    std::vector<std::pair<int, std::string>> list;
    std::vector<std::tuple<int, std::string, std::string>> map;
    // Items written "- key: value" (the steps list): each a key with its own value.
    std::vector<std::pair<std::string, Value>> keyed;
};

// "key:" at the start of a list item's text: a step of the steps list.
bool keyedItem(std::string_view body, std::string* key, std::string_view* rest)
{
    size_t n = 0;
    while (n < body.size() && body[n] >= 'a' && body[n] <= 'z')
        ++n;
    if (n == 0 || n >= body.size() || body[n] != ':' || (n + 1 < body.size() && body[n + 1] != ' '))
        return false;
    *key = std::string(body.substr(0, n));
    *rest = body.substr(n + 1);
    return true;
}

class Parser
{
public:
    explicit Parser(std::string_view text)
    {
        size_t start = 0;
        while (start <= text.size()) {
            size_t nl = text.find('\n', start);
            if (nl == std::string_view::npos)
                nl = text.size();
            std::string_view l = text.substr(start, nl - start);
            if (!l.empty() && l.back() == '\r')
                l.remove_suffix(1);
            m_lines.push_back(l);
            start = nl + 1;
        }
    }

    // Key → value, in the order written.
    Result<std::vector<std::pair<std::string, Value>>> parse()
    {
        std::vector<std::pair<std::string, Value>> out;
        std::set<std::string> seen;
        for (size_t i = 0; i < m_lines.size(); ++i) {
            const std::string_view l = m_lines[i];
            const size_t first = l.find_first_not_of(" \t");
            if (first != std::string_view::npos && l.substr(0, first).find('\t') != l.npos)
                return recipeError(int(i) + 1, "indent with spaces, not tabs");
        }
        while (m_at < m_lines.size()) {
            const std::string_view l = m_lines[m_at];
            const int line = int(m_at) + 1;
            if (blankOrComment(l)) {
                ++m_at;
                continue;
            }
            if (l.front() == ' ')
                return recipeError(line, "an indented line where a key (at the start of the "
                                         "line) was expected");
            const size_t colon = l.find(':');
            const std::string key(colon == std::string_view::npos ? l : l.substr(0, colon));
            static const std::regex keyRe("[a-z]+");
            if (colon == std::string_view::npos || !std::regex_match(key, keyRe))
                return recipeError(line, "expected \"key: value\"");
            if (!seen.insert(key).second)
                return recipeError(line, "\"" + key +
                                             "\" is written twice (each key once; a "
                                             "list takes several items)");
            ++m_at;
            auto value = valueAfter(l.substr(colon + 1), line, 0);
            if (!value)
                return value.error();
            out.emplace_back(key, std::move(*value));
        }
        return out;
    }

private:
    // What follows "key:" (or "- "), with the lines indented more than `indent` under it.
    Result<Value> valueAfter(std::string_view rest, int line, int indent)
    {
        Value v;
        v.line = line;
        const std::string_view r = trim(rest);
        if (r == "|" || r == "|-") {
            auto text = blockScalar(indent, line);
            if (!text)
                return text.error();
            v.scalar = std::move(*text);
            return v;
        }
        if (!r.empty() && r.front() == '[') {
            auto items = flowList(r, line);
            if (!items)
                return items.error();
            v.shape = Value::Shape::List;
            for (auto& item : *items)
                v.list.emplace_back(line, std::move(item));
            return v;
        }
        if (!r.empty() && r.front() != '#') {
            auto s = scalar(r, line);
            if (!s)
                return s.error();
            v.scalar = std::move(*s);
            return v;
        }
        return block(indent, line);
    }

    // The more-indented lines under a key: "- item" lines (a list) or "key: value" lines.
    Result<Value> block(int indent, int line)
    {
        Value v;
        v.line = line;
        int itemIndent = -1;
        while (m_at < m_lines.size()) {
            const std::string_view l = m_lines[m_at];
            const int at = int(m_at) + 1;
            if (blankOrComment(l)) {
                ++m_at;
                continue;
            }
            const int in = indentOf(l);
            if (in <= indent)
                break;
            if (itemIndent < 0)
                itemIndent = in;
            else if (in != itemIndent)
                return recipeError(at, "this line's indent differs from the lines above it");
            const std::string_view body = l.substr(size_t(in));
            if (body.front() == '-' && (body.size() == 1 || body[1] == ' ')) {
                if (v.shape == Value::Shape::Map)
                    return recipeError(at, "a list item among \"key: value\" lines");
                v.shape = Value::Shape::List;
                ++m_at;
                std::string key;
                std::string_view rest;
                if (keyedItem(trim(body.substr(1)), &key, &rest)) {
                    auto inner = valueAfter(rest, at, in + 1);
                    if (!inner)
                        return inner.error();
                    inner->line = at;
                    v.keyed.emplace_back(std::move(key), std::move(*inner));
                    continue;
                }
                auto item = valueAfter(body.substr(1), at, in);
                if (!item)
                    return item.error();
                if (item->shape != Value::Shape::Scalar)
                    return recipeError(at, "lists inside lists are not read here");
                if (item->scalar.empty())
                    return recipeError(at, "an empty item in a list");
                v.list.emplace_back(at, std::move(item->scalar));
                continue;
            }
            if (v.shape == Value::Shape::List)
                return recipeError(at, "a \"key: value\" line among list items");
            size_t colon = std::string_view::npos;
            char quote = 0;
            for (size_t i = 0; i < body.size(); ++i) { // a key may be quoted: "a b.txt": /x
                if (quote) {
                    if (body[i] == quote)
                        quote = 0;
                } else if (body[i] == '\'' || body[i] == '"') {
                    quote = body[i];
                } else if (body[i] == ':' && (i + 1 == body.size() || body[i + 1] == ' ')) {
                    colon = i;
                    break;
                }
            }
            if (colon == std::string_view::npos)
                return recipeError(at, "expected \"- item\" or \"key: value\"");
            auto key = scalar(body.substr(0, colon), at);
            if (!key)
                return key.error();
            auto value = scalar(body.substr(colon + 1), at);
            if (!value)
                return value.error();
            if (key->empty())
                return recipeError(at, "an empty key");
            v.shape = Value::Shape::Map;
            v.map.emplace_back(at, std::move(*key), std::move(*value));
            ++m_at;
        }
        if (itemIndent < 0)
            return recipeError(line, "a key with no value");
        return v;
    }

    // The lines of a "|" scalar: those indented more than `indent`, less their common indent.
    Result<std::string> blockScalar(int indent, int line)
    {
        std::vector<std::string_view> kept;
        int common = -1;
        while (m_at < m_lines.size()) {
            const std::string_view l = m_lines[m_at];
            if (trim(l).empty()) {
                kept.push_back({});
                ++m_at;
                continue;
            }
            const int in = indentOf(l);
            if (in <= indent)
                break;
            if (common < 0)
                common = in;
            if (in < common)
                return recipeError(int(m_at) + 1, "this line is indented less than the first "
                                                  "line of its block");
            kept.push_back(l.substr(size_t(common)));
            ++m_at;
        }
        while (!kept.empty() && kept.back().empty())
            kept.pop_back();
        if (kept.empty())
            return recipeError(line, "a | block with no lines under it");
        std::string out;
        for (size_t i = 0; i < kept.size(); ++i)
            out.append(i ? "\n" : "").append(kept[i]);
        return out;
    }

    std::vector<std::string_view> m_lines;
    size_t m_at = 0;
};

bool validPackage(const std::string& p)
{
    return !p.empty() && p.front() != '-' && std::none_of(p.begin(), p.end(), [](unsigned char c) {
        return c <= ' ' || c == '\'' || c == '"' || c == '\\' || c == 0x7f;
    });
}

bool hasDotDot(std::string_view path)
{
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string_view::npos)
            slash = path.size();
        if (path.substr(start, slash - start) == "..")
            return true;
        start = slash + 1;
    }
    return false;
}

Result<std::vector<std::string>> packages(const std::string& key, const Value& v)
{
    std::vector<std::pair<int, std::string>> items = v.list;
    if (v.shape == Value::Shape::Scalar)
        items.emplace_back(v.line, v.scalar);
    if (v.shape == Value::Shape::Map)
        return recipeError(v.line, key + " takes a list of packages, as [a, b] or \"- a\" lines");
    if (items.empty())
        return recipeError(v.line, key + " lists no package");
    if (items.size() > 200)
        return recipeError(v.line, key + " lists more than 200 packages");
    std::vector<std::string> out;
    for (auto& [line, p] : items) {
        if (!validPackage(p))
            return recipeError(line, "\"" + p + "\" is not a package name for " + key +
                                         " (no spaces, quotes or leading -; options are not "
                                         "passed through)");
        out.push_back(p);
    }
    return out;
}

} // namespace

const char* stepKindName(RecipeStep::Kind kind)
{
    switch (kind) {
    case RecipeStep::Kind::Apt:
        return "apt";
    case RecipeStep::Kind::Pip:
        return "pip";
    case RecipeStep::Kind::Npm:
        return "npm";
    case RecipeStep::Kind::Files:
        return "files";
    case RecipeStep::Kind::Run:
        return "run";
    }
    return "run";
}

std::string stepLabel(const RecipeStep& step)
{
    return std::string(stepKindName(step.kind)) + " (line " + std::to_string(step.line) + ")";
}

Result<Recipe> parseRecipe(std::string_view text)
{
    if (text.size() > kMaxRecipeBytes)
        return recipeError(0, "the recipe is larger than 64 KiB");
    if (text.find('\0') != std::string_view::npos)
        return recipeError(0, "the recipe is not text (it holds a NUL byte)");
    auto keys = Parser(text).parse();
    if (!keys)
        return keys.error();
    Recipe r;
    std::map<std::string, std::string> env;
    std::string workdir;
    static const std::regex fromRe("[a-z0-9][a-z0-9-]{0,62}(:([0-9]{1,9}|latest))?");
    static const std::regex envRe("[A-Za-z_][A-Za-z0-9_]*");
    // One key and its value, at the top or as an item of `steps`.
    std::function<Status(const std::string&, const Value&, bool)> apply =
        [&](const std::string& key, const Value& v, bool inSteps) -> Status {
        if (!inSteps && key != "steps" && !v.keyed.empty())
            return recipeError(v.keyed.front().second.line,
                               "an item written \"word: ...\" (quote it if it is a command; "
                               "steps of several kinds go under \"steps:\")");
        const auto addStep = [&](RecipeStep::Kind kind) -> RecipeStep& {
            RecipeStep s;
            s.kind = kind;
            s.line = v.line;
            s.env = env;
            s.workdir = workdir;
            r.steps.push_back(std::move(s));
            return r.steps.back();
        };
        if (key == "steps" && !inSteps) {
            if (v.shape != Value::Shape::List || !v.list.empty() || v.keyed.empty())
                return recipeError(v.line, "steps takes \"- kind: value\" items (run, apt, pip, "
                                           "npm, files, env, workdir)");
            for (const auto& [k, item] : v.keyed) {
                if (k == "from" || k == "steps")
                    return recipeError(item.line, "\"" + k + "\" is not a step");
                if (Status st = apply(k, item, true); !st)
                    return st;
            }
        } else if (key == "from" && !inSteps) {
            if (v.shape != Value::Shape::Scalar || !std::regex_match(v.scalar, fromRe))
                return recipeError(v.line, "from names a template: base, interpreter, desktop "
                                           "or one of yours, as name or name:version");
            r.from = v.scalar;
            r.fromLine = v.line;
        } else if (key == "apt" || key == "pip" || key == "npm") {
            auto pkgs = packages(key, v);
            if (!pkgs)
                return pkgs.error();
            addStep(key == "apt"   ? RecipeStep::Kind::Apt
                    : key == "pip" ? RecipeStep::Kind::Pip
                                   : RecipeStep::Kind::Npm)
                .items = std::move(*pkgs);
        } else if (key == "files") {
            if (v.shape != Value::Shape::Map)
                return recipeError(v.line, "files takes \"source: /destination\" lines");
            RecipeStep& s = addStep(RecipeStep::Kind::Files);
            for (auto& [line, src, dst] : v.map) {
                if (src.front() == '/' || src.front() == '~' || hasDotDot(src))
                    return recipeError(line, "\"" + src +
                                                 "\" is not inside the recipe's folder "
                                                 "(a source is a relative path with "
                                                 "no ..)");
                if (dst.empty() || dst.front() != '/' || hasDotDot(dst) || dst.back() == '/')
                    return recipeError(line, "the destination of \"" + src +
                                                 "\" must be an absolute file path with no ..");
                s.files.emplace_back(src, dst);
            }
        } else if (key == "env") {
            if (v.shape != Value::Shape::Map)
                return recipeError(v.line, "env takes \"NAME: value\" lines");
            for (auto& [line, name, value] : v.map) {
                if (!std::regex_match(name, envRe))
                    return recipeError(line, "\"" + name + "\" is not a variable name");
                env[name] = value;
            }
        } else if (key == "workdir") {
            if (v.shape != Value::Shape::Scalar || v.scalar.empty() || v.scalar.front() != '/' ||
                hasDotDot(v.scalar))
                return recipeError(v.line, "workdir takes an absolute path with no ..");
            workdir = v.scalar;
        } else if (key == "run") {
            std::vector<std::pair<int, std::string>> commands = v.list;
            if (v.shape == Value::Shape::Scalar)
                commands.emplace_back(v.line, v.scalar);
            if (v.shape == Value::Shape::Map)
                return recipeError(v.line, "run takes a command, or a list of them");
            if (commands.empty())
                return recipeError(v.line, "run has no command");
            for (auto& [line, command] : commands) {
                if (trim(command).empty())
                    return recipeError(line, "an empty command");
                RecipeStep& s = addStep(RecipeStep::Kind::Run);
                s.line = line;
                s.items = {command};
            }
        } else {
            return recipeError(v.line, "unknown key \"" + key +
                                           "\" (from, apt, pip, npm, files, env, workdir, run, "
                                           "steps)");
        }
        if (r.steps.size() > kMaxRecipeSteps)
            return recipeError(v.line, "more than 64 steps");
        return okStatus();
    };
    for (auto& [key, v] : *keys)
        if (Status st = apply(key, v, false); !st)
            return st.error();
    if (r.from.empty())
        return recipeError(0, "the recipe has no \"from:\" (base, interpreter, desktop or a "
                              "template of yours)");
    r.env = std::move(env);
    r.workdir = std::move(workdir);
    return r;
}

} // namespace lizard::sandboxes
