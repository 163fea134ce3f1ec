#include "sandboxes/allowedhosts.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>

namespace lizard::sandboxes {

namespace {

bool allDigits(const std::string& s)
{
    return !s.empty() && s.size() <= 3 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// "a.b.c.d" or "a.b.c.d/n" in the plain dotted form (no "010.1", no "1.2.3"): the CIDR, or "".
std::string ipv4Cidr(const std::string& text)
{
    const auto slash = text.find('/');
    const std::string addr = text.substr(0, slash);
    int len = 32;
    if (slash != std::string::npos) {
        const std::string bits = text.substr(slash + 1);
        if (!allDigits(bits) || bits.size() > 2 || (bits.size() == 2 && bits[0] == '0'))
            return {};
        len = std::stoi(bits);
        if (len > 32)
            return {};
    }
    size_t start = 0;
    for (int part = 0; part < 4; ++part) {
        const auto dot = addr.find('.', start);
        if ((part < 3) != (dot != std::string::npos))
            return {};
        const std::string octet = addr.substr(start, dot == std::string::npos ? dot : dot - start);
        if (!allDigits(octet) || (octet.size() > 1 && octet[0] == '0') || std::stoi(octet) > 255)
            return {};
        start = dot + 1;
    }
    return addr + "/" + std::to_string(len);
}

bool validLabel(const std::string& l)
{
    return !l.empty() && l.size() <= 63 && l.front() != '-' && l.back() != '-' &&
           std::all_of(l.begin(), l.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; });
}

// A name of two labels or more whose last label is not a number; "*." only in front.
bool validName(const std::string& name)
{
    std::string rest = name.rfind("*.", 0) == 0 ? name.substr(2) : name;
    if (rest.empty() || rest.size() > 253)
        return false;
    std::vector<std::string> labels;
    for (size_t start = 0;;) {
        const auto dot = rest.find('.', start);
        labels.push_back(rest.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    if (labels.size() < 2 || !std::all_of(labels.begin(), labels.end(), validLabel))
        return false;
    const auto& tld = labels.back();
    return std::any_of(tld.begin(), tld.end(), [](unsigned char c) { return std::isalpha(c); });
}

Error badEntry(size_t i, const std::string& entry, const std::string& why)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_ALLOWED_HOST",
                 "allowedHosts[" + std::to_string(i) + "] \"" + entry + "\" " + why +
                     " (a host name such as pypi.org or *.pythonhosted.org, an IPv4 address, or "
                     "an IPv4 range such as 140.82.112.0/20)"};
}

} // namespace

Result<AllowedHosts> parseAllowedHosts(const std::vector<std::string>& list)
{
    if (list.size() > kMaxAllowedHosts)
        return Error{ErrorKind::InvalidArgument, "TOO_MANY_ALLOWED_HOSTS",
                     "allowedHosts has " + std::to_string(list.size()) + " entries; at most " +
                         std::to_string(kMaxAllowedHosts) + " are allowed"};
    AllowedHosts out;
    for (size_t i = 0; i < list.size(); ++i) {
        std::string entry = list[i];
        std::transform(entry.begin(), entry.end(), entry.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (entry.find(':') != std::string::npos)
            return badEntry(i, list[i], "is IPv6 or has a port; sandboxes reach IPv4 only");
        const bool numeric = !entry.empty() && std::all_of(entry.begin(), entry.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '/';
        });
        if (numeric) {
            const std::string cidr = ipv4Cidr(entry);
            if (cidr.empty())
                return badEntry(i, list[i], "is not a valid IPv4 address or range");
            out.cidrs.push_back(cidr);
        } else if (validName(entry)) {
            out.names.push_back(entry);
        } else {
            return badEntry(i, list[i], "is not a valid host name");
        }
        if (std::find(out.entries.begin(), out.entries.end(), entry) == out.entries.end())
            out.entries.push_back(entry);
    }
    return out;
}

} // namespace lizard::sandboxes
