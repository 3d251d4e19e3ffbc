// backend.h — the one interface every symbolization backend implements. A backend gets the
// symbol file of one module and that module's lookup addresses (file addresses already moved
// into the call instruction, see address_map.h), sorted and unique, and answers one normalized
// SymbolRecord per address, in the same order.
#ifndef MEMTRACER_SYM_BACKEND_H
#define MEMTRACER_SYM_BACKEND_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memtracer/symbolizer/options.h"
#include "record.h"
#include "symbol_locator.h"

namespace mt::sym {

struct BackendContext {
    std::atomic<uint64_t> *done = nullptr;                 // addresses finished, for progress
    std::function<void(const std::string &)> warn;          // may be called from any thread
    // out[begin, end) are final and will not be touched again; called from any thread, so the
    // caller can store them while the backend works on the rest.
    std::function<void(size_t begin, size_t end)> ready;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual const char *name() const = 0;
    // Fills out[i] for addresses[i] (same size). Throws Error on failure.
    virtual void symbolize(const SymbolFile &file, std::span<const uint64_t> addresses, std::span<SymbolRecord> out,
                           const BackendContext &ctx) = 0;
    // Convenience: every record at once.
    std::vector<SymbolRecord> symbolize(const SymbolFile &file, std::span<const uint64_t> addresses,
                                        const BackendContext &ctx) {
        std::vector<SymbolRecord> out(addresses.size());
        symbolize(file, addresses, out, ctx);
        return out;
    }
};

// A backend that runs an external tool (atos, llvm-symbolizer) in up to `jobs` processes; `tool`
// is the executable the user named ("" = the backend's default).
class ToolBackend : public Backend {
public:
    // What the backend runs when the user names no executable, and how a missing one is told.
    struct Tool {
        const char *name;                   // the backend's name, which is also the tool's
        std::vector<std::string> defaults;  // tried in order (a name in PATH or a path)
        const char *where;                  // where the defaults were looked for: "in PATH"
        const char *hint;                   // how to get it: "it ships with Xcode"
    };
    ToolBackend(Tool kind, unsigned jobs, std::string tool) : kind_(std::move(kind)), jobs_(jobs), tool_(std::move(tool)) {}
    const char *name() const override { return kind_.name; }

protected:
    // The executable to run: the one the user named, else the first default found. Throws
    // Error(Symbols) "<name> not found (<what was looked for>); <hint>".
    std::string executable() const;

    Tool kind_;
    unsigned jobs_;
    std::string tool_;
};

// "0x<lower-case hex>": how the external tools take an address, and how llvm-symbolizer echoes it.
std::string hex_address(uint64_t v);

// Addresses a backend finishes before it says so through BackendContext::ready.
constexpr size_t kReadyChunk = 512;

std::unique_ptr<Backend> make_backend(const BackendOptions &opts);

// Splits [0, n) into at most `parts` contiguous ranges of near-equal size. Contiguous, because
// a thread that owns a run of sorted addresses touches only the compile units under it.
std::vector<std::pair<size_t, size_t>> split_ranges(size_t n, unsigned parts);

// Runs fn(i) for i in [0, count) on `count` threads; rethrows the first exception after all
// have finished.
void run_parallel(size_t count, const std::function<void(size_t)> &fn);

// "", "<invalid>" and "??" all mean unknown; a chain of one unknown frame is no answer at all.
void normalize(SymbolRecord &r);

}  // namespace mt::sym

#endif
