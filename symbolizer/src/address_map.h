// address_map.h — runtime return address -> (module, file address), and the address a backend
// is asked about.
//
// Which frames get -1: all of them. Every frame MemTracer records is a return address: the
// runtime unwinds synchronously from inside mt_on_alloc and drops its own frames, so even the
// innermost recorded frame is the address mt_on_alloc's caller returns to (format.h, STACKS).
// No frame is the PC of an interrupted instruction (there are no signal or exception frames), so
// subtracting 1 from each lands inside the call instruction (on arm64 inside the 4-byte BL) and
// the line table answers with the line of the call itself, for every frame alike.
#ifndef MEMTRACER_SYM_ADDRESS_MAP_H
#define MEMTRACER_SYM_ADDRESS_MAP_H

#include <cstdint>
#include <string>
#include <vector>

#include "memtracer/reader.h"

namespace mt::sym {

// Address in the symbol file (runtime - the module's recorded bias; for Mach-O that is
// runtime - load address + __TEXT vmaddr, the bias being the slide).
inline uint64_t file_address(const mt::reader::Module &m, uint64_t runtime) { return runtime - m.bias; }

// The address to look up for a recorded frame: inside the call instruction (see above).
inline uint64_t lookup_address(uint64_t file_addr) { return file_addr ? file_addr - 1 : 0; }

// The modules of one run, searchable by runtime address. Later MODULES chunks may add images
// whose ranges overlap an earlier one (unloaded, then another loaded there); the most recently
// recorded module wins.
class AddressMap {
public:
    void add(const mt::reader::Module &m);
    // Index into modules() of the module holding `addr`, or -1 when no module does.
    int find(uint64_t addr) const;
    // Whether module `i`'s range overlaps no other module's: then find(addr) is i for every addr
    // it contains, so a caller may answer a run of addresses in one module without searching
    // (RunIngest::resolve_addresses: the search was 14M instructions of a warm run's 240k frames).
    bool alone(int i) const;
    const std::vector<mt::reader::Module> &modules() const { return modules_; }

private:
    void rebuild() const;
    std::vector<mt::reader::Module> modules_;
    mutable std::vector<int> by_load_;           // indices sorted by load address
    mutable std::vector<uint64_t> max_end_;      // prefix maximum of end over by_load_
    mutable std::vector<uint8_t> alone_;         // by module index: overlaps no other module
    mutable bool dirty_ = false;
};

// The key the address cache uses for a module: its basename when it has an id (so a build keeps
// its cache when reinstalled under another path), the full path otherwise.
std::string cache_module_path(const mt::reader::Module &m);

}  // namespace mt::sym

#endif
