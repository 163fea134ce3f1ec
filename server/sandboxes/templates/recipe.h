#pragma once
// A template's recipe: a small YAML file whose keys are steps, run in the order they appear.
//
//     from: interpreter          # base | interpreter | desktop | <template>[:<version>]
//     apt: [figlet, jq]          # one step: apt-get install
//     pip:                       # one step: pip install (into the system Python)
//       - requests==2.31.0
//     npm: [typescript]          # one step: npm install -g
//     files:                     # one step: files sent with the build, to absolute paths
//       data/input.csv: /home/user/input.csv
//     env:                       # for the steps after it, and for the template's sandboxes
//       GREETING: hello
//     workdir: /home/user        # where the steps after it run
//     run:                       # each item is a step of its own (bash -e)
//       - python3 -c "print(1)"
//       - |
//         echo several
//         echo lines
//
// Keys are written once each; steps of several kinds in any order, or of one kind more than
// once, go in a `steps` list of "- kind: value" items (the same kinds and values):
//
//     steps:
//       - run: curl -LO https://example.org/tool.tar.gz
//       - apt: [libssl3]
//       - run: tar xf tool.tar.gz -C /opt
//
// Only this subset of YAML is read (every recipe is valid YAML, so editors highlight it):
// block and flow lists of scalars, one level of `key: value` maps, the steps list, plain, 'single'
// and "double" quoted scalars, `|` block scalars, `#` comments. Each key at most once. Errors name
// their line. A Dockerfile subset was not chosen: it promises Docker's semantics (USER,
// ENTRYPOINT, layers per instruction, build contexts) that a template here does not have.

#include "common/result.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lizard::sandboxes {

struct RecipeStep
{
    enum class Kind { Apt, Pip, Npm, Files, Run };
    Kind kind = Kind::Run;
    int line = 0;                   // where the step is written (1-based)
    std::vector<std::string> items; // packages; for Run, one command
    // Files: source (relative to the recipe's folder, as sent with the build) → absolute path.
    std::vector<std::pair<std::string, std::string>> files;
    std::map<std::string, std::string> env; // in effect at this step
    std::string workdir;                    // in effect at this step ("" = root's home)
};

struct Recipe
{
    std::string from; // a built-in template or a template's name, maybe with ":version"
    int fromLine = 0;
    std::vector<RecipeStep> steps;
    std::map<std::string, std::string> env; // at the end: what the template's sandboxes get
    std::string workdir;                    // at the end (recorded with the version)
};

constexpr size_t kMaxRecipeBytes = 64 * 1024;
constexpr size_t kMaxRecipeSteps = 64;

// INVALID_RECIPE (InvalidArgument) with "line N: ..." for anything it does not accept.
Result<Recipe> parseRecipe(std::string_view text);

const char* stepKindName(RecipeStep::Kind kind);
// "run (line 12)", "apt (line 3)": how the log and errors name a step.
std::string stepLabel(const RecipeStep& step);

} // namespace lizard::sandboxes
