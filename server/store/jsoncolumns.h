#pragma once
// Columns that hold JSON text (metadata, envs, allowedHosts). A value that is not the shape
// expected reads as empty, and entries that are not strings are skipped: a row written by a
// newer or broken version still loads.

#include <map>
#include <string>
#include <vector>

namespace lizard::store {

std::string mapToJson(const std::map<std::string, std::string>& m);
std::map<std::string, std::string> mapFromJson(const std::string& text);
std::vector<std::string> listFromJson(const std::string& text);

} // namespace lizard::store
