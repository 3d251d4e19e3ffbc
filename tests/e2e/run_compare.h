// run_compare.h — compares frames of two captures of the same deterministic game run. Raw
// addresses differ between processes (ASLR), so stacks are compared module-relative: each frame
// becomes (module file name, address - bias), which is what the symbolizer will look up anyway.
#pragma once

#include <memtracer/reader.h>

#include <map>
#include <string>
#include <vector>

namespace e2e {

using NormalStack = std::vector<std::pair<std::string, uint64_t>>;

// Per frame: (class full name, normalized stack) -> (count, requested bytes). GC bytes are left
// out on purpose: Boehm fills its size map lazily (GC_extend_size_map), so the size class a
// request lands in depends on which sizes other threads asked for first, and GC_size of the same
// request can differ between two runs of the same seed. gc_covers_requested checks them instead.
using FrameContent = std::map<std::pair<std::string, NormalStack>, std::pair<uint64_t, uint64_t>>;

NormalStack normalize(const mt::reader::Run &run, uint32_t stack_id);
FrameContent frame_content(const mt::reader::Run &run, const mt::reader::Frame &frame);

// True when every allocation's GC size is at least its requested size.
bool gc_covers_requested(const mt::reader::Frame &frame);

// Empty when equal; otherwise a sentence naming the first difference.
std::string diff(const FrameContent &a, const FrameContent &b);

}  // namespace e2e
