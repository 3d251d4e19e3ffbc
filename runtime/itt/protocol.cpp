// protocol.cpp — how the ITT static part takes this collector (itt_abi.h): __itt_api_init fills
// the static part's pointers (version 2, what libtbb12 and libomp5 use), __itt_api_version
// announces version 1 (each __itt_<name> then looked up by name: they are exported by
// collector.cpp), __itt_api_fini ends the capture the collector started.
#include <stdio.h>
#include <string.h>

#include "collector.h"
#include "target.h"

#define MT_ITT_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

void *implementation(const char *name) {
    if (name == nullptr) return nullptr;
    for (const mt::itt::Entry *e = mt::itt::entries(); e->name; ++e)
        if (strcmp(e->name, name) == 0) return e->fn;
    return nullptr;
}

__attribute__((destructor)) void on_unload() {
    uint64_t dropped = mt::itt::g_stats.marks_dropped.load();
    if (dropped) fprintf(stderr, "memtracer-itt: %llu marks dropped (the runtime's mark queue was full)\n",
                         static_cast<unsigned long long>(dropped));
    mt::itt::target_release();
}

}  // namespace

// Every row of the table: ours where we implement it, else the row's null function, which the
// static part itself uses to ignore a call (for domain_create, string_handle_create and the
// other functions it implements itself, its own implementation). Rows are never left NULL.
MT_ITT_EXPORT void __itt_api_init(__itt_global *global, __itt_group_id) {
    mt::itt::collector_init();
    if (global == nullptr || global->api_list_ptr == nullptr) return;
    for (__itt_api_info *row = global->api_list_ptr; row->name != nullptr; ++row) {
        if (row->func_ptr == nullptr) continue;
        void *ours = implementation(row->name);
        *row->func_ptr = ours ? ours : row->null_func;
    }
}

MT_ITT_EXPORT void __itt_api_fini(__itt_global *) { mt::itt::target_release(); }

MT_ITT_EXPORT const char *__itt_api_version(void) {
    mt::itt::collector_init();
    return "MemTracer ITT collector";
}
