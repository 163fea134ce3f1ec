#include "logs/logfile.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::logs {

nlohmann::json toJson(const LogLine& line)
{
    return {{"seq", line.seq},
            {"ts", line.ts},
            {"level", line.level},
            {"source", line.source},
            {"message", line.message}};
}

namespace {

bool parse(const std::string& text, LogLine& out)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return false; // a line cut by a crash mid-write: skipped
    out.seq = j.value("seq", uint64_t(0));
    out.ts = j.value("ts", int64_t(0));
    out.level = j.value("level", std::string("info"));
    out.source = j.value("source", std::string());
    out.message = j.value("message", std::string());
    return out.seq != 0;
}

void readLines(const std::string& path, std::vector<LogLine>& out)
{
    std::ifstream in(path);
    std::string text;
    LogLine line;
    while (std::getline(in, text))
        if (parse(text, line))
            out.push_back(line);
}

} // namespace

std::vector<LogLine> LogFile::tail(size_t n) const
{
    std::vector<LogLine> all;
    readLines(path() + ".1", all);
    readLines(path(), all);
    if (all.size() > n)
        all.erase(all.begin(), all.end() - std::ptrdiff_t(n));
    return all;
}

uint64_t LogFile::lastSeq() const
{
    const auto last = tail(1);
    return last.empty() ? 0 : last.back().seq;
}

bool LogFile::append(const LogLine& line) const
{
    LogLine bounded = line;
    if (bounded.message.size() > kMaxMessageBytes)
        bounded.message.resize(kMaxMessageBytes); // dump() below replaces a cut character
    const std::string text =
        toJson(bounded).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    struct stat st
    {
    };
    if (::stat(path().c_str(), &st) == 0 && size_t(st.st_size) + text.size() > kMaxFileBytes)
        std::rename(path().c_str(), (path() + ".1").c_str());
    const int fd = ::open(path().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
    ::close(fd);
    return ok;
}

} // namespace lizard::logs
