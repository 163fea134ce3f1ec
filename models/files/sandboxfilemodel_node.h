#pragma once
// Internal to SandboxFileModel's implementation files: one listed file or folder.

#include "models/files/sandboxfilemodel.h"

namespace lizard::models::files {

struct SandboxFileModel::Node
{
    client::FileEntry entry;
    QString sortKey; // entry.name case-folded, for sorting
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;
    bool listed = false;
    bool listing = false;
    bool failed = false;    // the last listing failed: no automatic retry until refresh()
    bool listAgain = false; // a refresh came while a listing was in flight
    bool linkToDir = false; // a symlink that leads to a folder (probed)
    bool isLink() const { return entry.type == QLatin1String("symlink"); }
    bool isDir() const { return linkToDir || entry.type == QLatin1String("dir"); }
};

} // namespace lizard::models::files
