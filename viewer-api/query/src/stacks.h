// stacks.h — a stack's frames with their symbols: the inline chain of each address expanded,
// with the C# name and C# file:line preferred for display.
#ifndef MEMTRACER_VIEWER_STACKS_H
#define MEMTRACER_VIEWER_STACKS_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "memtracer/json.h"
#include "memtracer/viewer/results.h"

namespace mt::viewer {

// Innermost first: pos ascending, and within one address the inline chain innermost first.
std::vector<SymFrame> resolve_stack(Database &db, int64_t run, int64_t stack_id);
void write_frames(Json &j, const std::vector<SymFrame> &frames);  // a JSON array

// Display names of every stack of a run, OUTERMOST first (flame graph and collapsed stacks),
// without the stack's leading allocation machinery (stacks.machinery): the tree starts at the
// same frame whichever way the allocation was recorded (patch or no-patch mode).
std::unordered_map<int64_t, std::vector<std::string>> stack_paths(Database &db, int64_t run);

// The same with each frame's location (SymFrame::location()), OUTERMOST first. `csharp_only`
// groups by C# method: frames without a C# name (IL2CPP's runtime, the GC, the engine) are
// dropped, so their weight lands on the C# method that called them, and a C# method repeated
// on consecutive frames (IL2CPP's generated helpers, inline chains) is one frame.
struct PathFrame {
    std::string name, location;
};
std::unordered_map<int64_t, std::vector<PathFrame>> stack_paths_located(Database &db, int64_t run, bool csharp_only);

}  // namespace mt::viewer

#endif
