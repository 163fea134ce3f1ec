#include "service/bootstrap.h"

#include "common/crypto.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/store.h"

#include <cctype>

namespace lizard::service {

bool looksLikeApiKey(const std::string& key)
{
    if (key.size() != 44 || key.rfind("liz_", 0) != 0)
        return false;
    for (size_t i = 4; i < key.size(); ++i) {
        if (!std::isalnum(static_cast<unsigned char>(key[i])))
            return false;
    }
    return true;
}

Result<std::string> ensureApiKey(store::Store& store, const std::string& dataDir)
{
    const std::string path = dataDir + "/api-key";
    auto existing = readSmallFile(path, 4096);
    if (existing) {
        std::string key = *existing;
        while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back())))
            key.pop_back();
        if (looksLikeApiKey(key)) {
            const std::string hash = sha256Hex(key);
            if (!store.keyByHash(hash)) {
                // The database was reset but the key file survived: keep the user's key.
                store::ApiKeyRecord rec{"key_" + randomLowerAlnum(12), "local", hash,
                                        key.substr(0, 8), nowMs()};
                rec.bootstrap = true;
                if (Status s = store.addKey(rec); !s)
                    return s.error();
                log::info("api key: registered the existing key file " + path);
            }
            return path;
        }
        log::warn("api key: " + path + " does not hold a valid key; making a new one");
    } else if (existing.error().kind != ErrorKind::NotFound) {
        return existing.error();
    }
    const std::string key = "liz_" + randomAlnum(40);
    if (Status s = writeFileAtomic(path, key + "\n", 0600); !s)
        return s.error();
    // Only the old key file's keys: the keys made through the API stay valid.
    for (const auto& old : store.keys()) {
        if (!old.bootstrap)
            continue;
        store.removeKey(old.id);
        log::info("api key: revoked " + old.prefix + "… (its key file is gone)");
    }
    store::ApiKeyRecord rec{"key_" + randomLowerAlnum(12), "local", sha256Hex(key),
                            key.substr(0, 8), nowMs()};
    rec.bootstrap = true;
    if (Status s = store.addKey(rec); !s)
        return s.error();
    log::info("api key: created " + rec.prefix + "… in " + path);
    return path;
}

Status ensureDefaultProject(store::Store& store)
{
    if (store.projectBySlug("default"))
        return okStatus();
    auto created = store.createProject("default", "default");
    if (!created)
        return created.error();
    log::info("created the default project " + created->id);
    return okStatus();
}

} // namespace lizard::service
