#include "agent/build/launchconfig.h"

#include <stdexcept>

namespace lizard::agent {

nlohmann::json toJson(const IdMap& map)
{
    return {{"kind", map.kind},         {"uid", map.uid},       {"gid", map.gid},
            {"hostRoot", map.hostRoot}, {"subUid", map.subUid}, {"subGid", map.subGid},
            {"count", map.count}};
}

std::string toHex(const std::string& bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) {
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 15]);
    }
    return out;
}

std::string fromHex(const std::string& text)
{
    auto digit = [](char c) {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        throw std::invalid_argument("not a hex digit in seccompProgram");
    };
    if (text.size() % 2 != 0)
        throw std::invalid_argument("seccompProgram has an odd length");
    std::string out(text.size() / 2, '\0');
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = char(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
    return out;
}

LaunchConfig parseLaunchConfig(const nlohmann::json& j)
{
    LaunchConfig c;
    c.mode = j.at("mode").get<std::string>();
    const auto& m = j.at("idMap");
    c.idMap.kind = m.at("kind").get<std::string>();
    c.idMap.uid = m.value("uid", 0u);
    c.idMap.gid = m.value("gid", 0u);
    c.idMap.hostRoot = m.value("hostRoot", 0u);
    c.idMap.subUid = m.value("subUid", 0u);
    c.idMap.subGid = m.value("subGid", 0u);
    c.idMap.count = m.value("count", 65536u);
    c.newuidmap = j.value("newuidmap", c.newuidmap);
    c.newgidmap = j.value("newgidmap", c.newgidmap);
    c.id = j.value("id", std::string());
    c.socketPath = j.value("socketPath", std::string());
    c.templateRoot = j.value("templateRoot", std::string());
    c.templateUsrDirs = j.value("templateUsrDirs", std::string());
    c.templateUsrLocal = j.value("templateUsrLocal", std::string());
    c.sandboxDir = j.value("sandboxDir", std::string());
    c.cgroupProcs = j.value("cgroupProcs", std::vector<std::string>());
    c.workloadCgroupProcs = j.value("workloadCgroupProcs", std::string());
    c.envs = j.value("envs", std::map<std::string, std::string>());
    c.slirp = j.value("slirp", std::string());
    if (const auto it = j.find("allowList"); it != j.end()) {
        c.allowList = true;
        c.allowCidrs = it->value("cidrs", std::vector<std::string>());
        c.allowNames = it->value("names", std::vector<std::string>());
        c.dnsUpstream = it->value("dnsUpstream", std::string());
    }
    c.hostname = j.value("hostname", c.hostname);
    c.volumeDir = j.value("volumeDir", std::string());
    c.volumeInitOwner = j.value("volumeInitOwner", false);
    c.diskWatched = j.value("diskWatched", false);
    c.seccompProgram = fromHex(j.value("seccompProgram", std::string()));
    if (const auto it = j.find("diskQuota"); it != j.end()) {
        c.quotaBytes = it->value("bytes", std::int64_t(0));
        c.quotaInodes = it->value("inodes", std::int64_t(0));
    }
    c.pidFloor = j.value("pidFloor", 0);
    c.shmMb = j.value("shmMb", 0);
    if (const auto it = j.find("rlimits"); it != j.end()) {
        c.rlimits.pids = it->value("pids", 0);
        c.rlimits.memoryMb = it->value("memoryMb", 0);
    }
    if (const auto it = j.find("lease"); it != j.end()) {
        c.endAtMs = it->value("endAtMs", std::int64_t(0));
        c.orphanGraceMs = it->value("graceMs", std::int64_t(0));
    }
    c.target = j.value("target", std::string());
    c.timeoutMs = j.value("timeoutMs", c.timeoutMs);
    c.resolvConf = j.value("resolvConf", false);
    if (const auto it = j.find("layers"); it != j.end()) {
        for (const auto& layer : *it)
            c.changeLayers.push_back({layer.at("upper").get<std::string>(),
                                      layer.value("lowers", std::vector<std::string>()),
                                      layer.at("at").get<std::string>()});
    }
    c.exclude = j.value("exclude", std::vector<std::string>());
    c.limit = j.value("limit", c.limit);
    c.changesOp = j.value("op", c.changesOp);
    c.path = j.value("path", std::string());
    c.maxBytes = j.value("maxBytes", c.maxBytes);
    if (const auto it = j.find("copies"); it != j.end()) {
        for (const auto& pair : *it)
            c.copies.emplace_back(pair.at("from").get<std::string>(),
                                  pair.at("to").get<std::string>());
    }
    return c;
}

} // namespace lizard::agent
