// printers.h — the two renderings of a Summary: aligned text for people, JSON for scripts.
// Both carry the same content; main.cpp picks one.
#ifndef MEMTRACER_DUMP_PRINTERS_H
#define MEMTRACER_DUMP_PRINTERS_H

#include "summary.h"

#include <ostream>

namespace mt::dump {

void print_text(const Summary &s, const Options &opts, std::ostream &out);
void print_json(const Summary &s, const Options &opts, std::ostream &out);

// Shared helpers.
std::string class_label(const Summary &s, uint32_t class_id);  // "System.String"
std::string thread_label(const Summary &s, uint32_t thread_id);
double ticks_to_ms(const Summary &s, uint64_t ticks);
const char *mode_name(const Summary &s);  // "events" or "aggregate"

}  // namespace mt::dump

#endif
