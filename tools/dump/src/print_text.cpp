// Text rendering: one section per part of the file, tables aligned with fixed-width columns.
#include "describe.h"
#include "printers.h"

#include <memtracer/format.h>

namespace mt::dump {

std::string class_label(const Summary &s, uint32_t id) {
    if (id >= s.classes.size()) return "#" + std::to_string(id);
    const reader::Class &c = s.classes[id];
    return c.name_space.empty() ? c.name : c.name_space + "." + c.name;
}

std::string thread_label(const Summary &s, uint32_t id) {
    return id < s.threads.size() ? s.threads[id].name : "#" + std::to_string(id);
}

double ticks_to_ms(const Summary &s, uint64_t ticks) { return static_cast<double>(ticks) * 1000.0 / s.header.tick_hz; }

const char *mode_name(const Summary &s) { return s.header.flags & MT_FILE_FLAG_AGGREGATE ? "aggregate" : "events"; }

namespace {

void line(std::ostream &out, const char *label, const std::string &value) {
    out << strf("  %-19s", label) << value << '\n';
}

void print_header(const Summary &s, std::ostream &out) {
    const reader::Header &h = s.header;
    out << "header\n";
    line(out, "format version", std::to_string(h.version));
    line(out, "start time", utc_time(h.start_unix_ns) + " (" + std::to_string(h.start_unix_ns) + " ns)");
    line(out, "pid", std::to_string(h.pid));
    line(out, "arch", arch_name(h.arch) + ", " + std::to_string(h.pointer_size) + "-byte pointers");
    line(out, "mode", mode_name(s));
    line(out, "sampling",
         h.sample_interval_bytes ? "one sample per " + std::to_string(h.sample_interval_bytes) + " bytes" : "off");
    line(out, "flags", (h.flags ? join(file_flag_names(h.flags), ", ") + " " : "") + "(" + hex(h.flags) + ")");
    line(out, "max stack depth", std::to_string(h.max_stack_depth));
    line(out, "tick rate", strf("%.0f Hz", h.tick_hz));
    out << "info (" << h.info.size() << ")\n";
    for (const auto &[k, v] : h.info) out << strf("  %-19s", printable(k).c_str()) << printable(v) << '\n';
}

void print_dictionaries(const Summary &s, std::ostream &out) {
    out << "modules (" << s.modules.size() << ")\n";
    out << "     id kind   load address        size         bias                text vmaddr     build id / path\n";
    for (const reader::Module &m : s.modules)
        out << strf("  %5u %-6s %-19s %-12s %-19s %-15s ", m.id, module_kind_name(m.kind).c_str(),
                    hex(m.load_address).c_str(), hex(m.size).c_str(), hex(m.bias).c_str(), hex(m.text_vmaddr).c_str())
            << (m.build_id.empty() ? "-" : hex_bytes(m.build_id)) << "  " << printable(m.path) << '\n';
    out << "threads (" << s.threads.size() << ")\n";
    for (const reader::Thread &t : s.threads)
        out << strf("  %5u  os tid %-10llu ", t.id, static_cast<unsigned long long>(t.os_tid)) << printable(t.name) << '\n';
    out << "classes (" << s.classes.size() << ")\n";
    for (const reader::Class &c : s.classes)
        out << strf("  %5u %-16s elem %-5llu ", c.id, hex(c.klass).c_str(), static_cast<unsigned long long>(c.element_size))
            << printable(class_label(s, c.id))
            << (c.flags ? " [" + join(class_flag_names(c.flags), ",") + "]" : "") << '\n';
    out << "stacks (" << s.stacks << ")\n  " << s.stack_frames << " frames in all, deepest "
        << s.max_stack_depth << "\n";
}

void frame_row(std::ostream &out, const char *seq, const std::string &index, double ms, uint64_t events,
               uint64_t requested, uint64_t gc, uint64_t dropped, uint64_t heap, uint64_t gcs, uint64_t deaths) {
    out << strf("  %7s %9s %11.3f %9llu %12llu %12llu %8llu %12llu %4llu %7llu", seq, index.c_str(), ms,
                static_cast<unsigned long long>(events), static_cast<unsigned long long>(requested),
                static_cast<unsigned long long>(gc), static_cast<unsigned long long>(dropped),
                static_cast<unsigned long long>(heap), static_cast<unsigned long long>(gcs),
                static_cast<unsigned long long>(deaths));
}

void print_frames(const Summary &s, std::ostream &out) {
    out << "frames (" << s.committed << " committed, " << s.rows.size() << " shown)\n";
    out << "      seq     index     dur ms    events    requested     GC bytes  dropped         heap  GCs  deaths"
           "  flags\n";
    for (const FrameRow &r : s.rows) {
        const reader::Frame &f = r.frame;
        frame_row(out, std::to_string(f.seq).c_str(), std::to_string(f.index), ticks_to_ms(s, f.end_tick - f.start_tick),
                  f.events, f.requested_bytes, f.gc_bytes, f.dropped, f.heap_size, r.gcs, r.deaths);
        out << "  " << join(frame_flag_names(f.flags), ",") << '\n';
    }
    const Totals &t = s.totals;
    frame_row(out, "total", "", ticks_to_ms(s, t.ticks), t.events, t.requested_bytes, t.gc_bytes, t.dropped,
              t.max_heap, t.gcs, t.deaths);
    out << "  (heap: the largest)\n";
}

void print_marks(const Summary &s, std::ostream &out) {
    out << "marks (" << s.marks.size() << ")\n";
    for (const MarkRow &m : s.marks)
        out << strf("  frame %7llu  index %9llu  +%.3f ms  ", static_cast<unsigned long long>(m.seq),
                    static_cast<unsigned long long>(m.index), ticks_to_ms(s, m.tick - m.frame_start_tick))
            << printable(m.label) << '\n';
}

void print_frame_detail(const Summary &s, const reader::Frame &f, std::ostream &out) {
    out << "frame " << f.seq << " (index " << f.index << "): " << f.event_list.size() << " events, "
        << f.aggregates.size() << " aggregates, " << f.gcs.size() << " GCs, " << f.deaths.size() << " deaths\n";
    for (const reader::Event &e : f.event_list)
        out << strf("  event  +%-10.3f us  size %-8llu gc %-8llu %-18s stack %-6u thread ",
                    ticks_to_ms(s, e.tick - f.start_tick) * 1000.0, static_cast<unsigned long long>(e.size),
                    static_cast<unsigned long long>(e.gc_size), hex(e.address).c_str(), e.stack_id)
            << printable(thread_label(s, e.thread)) << "  " << printable(class_label(s, e.class_id)) << '\n';
    for (const reader::Aggregate &a : f.aggregates)
        out << strf("  aggregate  count %-8llu requested %-10llu gc %-10llu samples %-8llu stack %-6u ",
                    static_cast<unsigned long long>(a.count), static_cast<unsigned long long>(a.requested_bytes),
                    static_cast<unsigned long long>(a.gc_bytes), static_cast<unsigned long long>(a.samples), a.stack_id)
            << printable(class_label(s, a.class_id)) << '\n';
    for (const reader::GcEvent &g : f.gcs)
        out << strf("  gc #%llu  %.3f ms  heap %llu  free %llu  reclaimed %llu\n", static_cast<unsigned long long>(g.gc_no),
                    ticks_to_ms(s, g.end_tick - g.start_tick), static_cast<unsigned long long>(g.heap_size),
                    static_cast<unsigned long long>(g.free_bytes), static_cast<unsigned long long>(g.reclaimed_bytes));
    for (const reader::Death &d : f.deaths)
        out << strf("  death  %-18s gc %-8llu from frame %-6llu stack %-6u ", hex(d.address).c_str(),
                    static_cast<unsigned long long>(d.gc_size), static_cast<unsigned long long>(d.alloc_frame_seq),
                    d.stack_id)
            << printable(class_label(s, d.class_id)) << '\n';
}

void print_counters(const Summary &s, std::ostream &out) {
    if (!s.result.has_counters) {
        out << "counters\n  (no COUNTERS chunk)\n";
        return;
    }
    const reader::Counters &c = s.result.counters;
    out << "counters\n";
    const std::pair<const char *, uint64_t> rows[] = {
        {"allocations seen", c.allocations_seen}, {"events recorded", c.events_recorded},
        {"events dropped", c.events_dropped},     {"events sampled out", c.events_sampled_out},
        {"events written", c.events_written},     {"bytes written", c.bytes_written},
        {"frames written", c.frames_written},     {"stacks known", c.stacks_known},
        {"classes known", c.classes_known},       {"threads known", c.threads_known},
        {"last flush unix ns", c.last_flush_unix_ns}, {"last flush ns", c.last_flush_duration_ns},
        {"reentrant skipped", c.reentrant_skipped}, {"running", c.running},
        {"paused", c.paused},                     {"disabled", c.disabled},
        {"gc callback rechains", c.gc_callback_rechains}};
    for (auto [label, v] : rows) line(out, label, std::to_string(v));
}

void print_end(const Summary &s, std::ostream &out) {
    const reader::ReadResult &r = s.result;
    out << "end\n";
    line(out, "stop", std::string(reader::stop_name(r.stop)) + " at offset " + std::to_string(r.stop_offset));
    line(out, "reason", printable(r.stop_reason));
    if (r.stop == reader::Stop::End) line(out, "end reason", end_reason_name(r.end_reason) + ": " + printable(r.end_message));
    line(out, "uncommitted events", std::to_string(r.uncommitted_events));
}

}  // namespace

void print_text(const Summary &s, const Options &opts, std::ostream &out) {
    out << "file " << printable(opts.path) << "\n";
    print_header(s, out);
    print_dictionaries(s, out);
    print_frames(s, out);
    print_marks(s, out);
    if (opts.events)
        for (const FrameRow &r : s.rows) print_frame_detail(s, r.frame, out);
    print_counters(s, out);
    print_end(s, out);
}

}  // namespace mt::dump
