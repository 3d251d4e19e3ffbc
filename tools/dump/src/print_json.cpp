// JSON rendering: the same content as the text, as one document. 64-bit addresses are hex
// strings (JSON readers commonly hold numbers as doubles); counts and sizes are numbers.
#include "describe.h"
#include "printers.h"

#include <memtracer/json.h>

namespace mt::dump {
namespace {

void strings(Json &j, std::string_view key, const std::vector<std::string> &v) {
    j.key(key).arr();
    for (const std::string &s : v) j.val(s);
    j.end_arr();
}

void header(Json &j, const Summary &s) {
    const reader::Header &h = s.header;
    j.key("header").obj();
    j.kv("version", h.version).kv("start_unix_ns", h.start_unix_ns).kv("start_time", utc_time(h.start_unix_ns));
    j.kv("pid", h.pid).kv("arch", arch_name(h.arch)).kv("pointer_size", h.pointer_size);
    j.kv("mode", mode_name(s)).kv("sample_interval_bytes", h.sample_interval_bytes);
    j.kv("flags", h.flags);
    strings(j, "flag_names", file_flag_names(h.flags));
    j.kv("max_stack_depth", h.max_stack_depth).key("tick_hz").val_g17(h.tick_hz);
    j.end_obj();
    j.key("info").obj();
    for (const auto &[k, v] : h.info) j.kv(k, v);
    j.end_obj();
}

void dictionaries(Json &j, const Summary &s) {
    j.key("modules").arr();
    for (const reader::Module &m : s.modules) {
        j.obj().kv("id", m.id).kv("kind", module_kind_name(m.kind)).kv("path", m.path);
        j.kv("load_address", hex(m.load_address)).kv("size", m.size).kv("bias", hex(m.bias));
        j.kv("text_vmaddr", hex(m.text_vmaddr)).kv("build_id", hex_bytes(m.build_id)).end_obj();
    }
    j.end_arr().key("threads").arr();
    for (const reader::Thread &t : s.threads)
        j.obj().kv("id", t.id).kv("os_tid", t.os_tid).kv("name", t.name).end_obj();
    j.end_arr().key("classes").arr();
    for (const reader::Class &c : s.classes) {
        j.obj().kv("id", c.id).kv("klass", hex(c.klass)).kv("namespace", c.name_space);
        j.kv("name", c.name).kv("flags", c.flags);
        strings(j, "flag_names", class_flag_names(c.flags));
        j.kv("element_size", c.element_size).end_obj();
    }
    j.end_arr().key("stacks").obj();
    j.kv("count", s.stacks).kv("frames", s.stack_frames).kv("max_depth", s.max_stack_depth).end_obj();
}

void frame_lists(Json &j, const reader::Frame &f) {
    j.key("event_list").arr();
    for (const reader::Event &e : f.event_list)
        j.obj().kv("thread", e.thread).kv("tick", e.tick).kv("class", e.class_id)
            .kv("stack", e.stack_id).kv("size", e.size).kv("gc_size", e.gc_size)
            .kv("address", hex(e.address)).end_obj();
    j.end_arr().key("aggregates").arr();
    for (const reader::Aggregate &a : f.aggregates)
        j.obj().kv("class", a.class_id).kv("stack", a.stack_id).kv("count", a.count)
            .kv("requested_bytes", a.requested_bytes).kv("gc_bytes", a.gc_bytes).kv("samples", a.samples)
            .end_obj();
    j.end_arr().key("gc_list").arr();
    for (const reader::GcEvent &g : f.gcs)
        j.obj().kv("gc_no", g.gc_no).kv("start_tick", g.start_tick).kv("end_tick", g.end_tick)
            .kv("heap_size", g.heap_size).kv("free_bytes", g.free_bytes)
            .kv("reclaimed_bytes", g.reclaimed_bytes).end_obj();
    j.end_arr().key("death_list").arr();
    for (const reader::Death &d : f.deaths)
        j.obj().kv("address", hex(d.address)).kv("alloc_frame_seq", d.alloc_frame_seq)
            .kv("class", d.class_id).kv("stack", d.stack_id).kv("gc_size", d.gc_size).end_obj();
    j.end_arr();
}

// Rows go out as they are written: with --events a long run's document is far larger than its file.
void frames(Json &j, const Summary &s, const Options &opts, std::ostream &out) {
    j.key("frames").obj().kv("committed", s.committed).kv("shown", uint64_t{s.rows.size()});
    j.key("rows").arr();
    for (const FrameRow &r : s.rows) {
        const reader::Frame &f = r.frame;
        j.obj().kv("seq", f.seq).kv("index", f.index).kv("start_tick", f.start_tick);
        j.kv("end_tick", f.end_tick).key("duration_ms").val(ticks_to_ms(s, f.end_tick - f.start_tick), 3);
        j.kv("events", f.events).kv("records", r.records).kv("requested_bytes", f.requested_bytes);
        j.kv("gc_bytes", f.gc_bytes).kv("dropped", f.dropped).kv("heap_size", f.heap_size);
        j.kv("free_bytes", f.free_bytes).kv("gcs", r.gcs).kv("deaths", r.deaths).kv("flags", f.flags);
        strings(j, "flag_names", frame_flag_names(f.flags));
        if (opts.events) frame_lists(j, f);
        j.end_obj();
        out << j.raw();
        j.raw().clear();
    }
    const Totals &t = s.totals;
    j.end_arr().key("totals").obj().key("duration_ms").val(ticks_to_ms(s, t.ticks), 3);
    j.kv("events", t.events).kv("records", t.records).kv("requested_bytes", t.requested_bytes);
    j.kv("gc_bytes", t.gc_bytes).kv("dropped", t.dropped).kv("gcs", t.gcs).kv("deaths", t.deaths);
    j.kv("max_heap_size", t.max_heap).end_obj().end_obj();
}

void marks(Json &j, const Summary &s) {
    j.key("marks").arr();
    for (const MarkRow &m : s.marks)
        j.obj().kv("frame_seq", m.seq).kv("frame_index", m.index).kv("tick", m.tick).kv("label", m.label).end_obj();
    j.end_arr();
}

void counters(Json &j, const Summary &s) {
    j.key("counters");
    if (!s.result.has_counters) {
        j.null();
        return;
    }
    const reader::Counters &c = s.result.counters;
    j.obj().kv("allocations_seen", c.allocations_seen).kv("events_recorded", c.events_recorded);
    j.kv("events_dropped", c.events_dropped).kv("events_sampled_out", c.events_sampled_out);
    j.kv("events_written", c.events_written).kv("bytes_written", c.bytes_written);
    j.kv("frames_written", c.frames_written).kv("stacks_known", c.stacks_known);
    j.kv("classes_known", c.classes_known).kv("threads_known", c.threads_known);
    j.kv("last_flush_unix_ns", c.last_flush_unix_ns).kv("last_flush_duration_ns", c.last_flush_duration_ns);
    j.kv("reentrant_skipped", c.reentrant_skipped).kv("running", c.running).kv("paused", c.paused);
    j.kv("disabled", c.disabled).kv("gc_callback_rechains", c.gc_callback_rechains).end_obj();
}

void end(Json &j, const Summary &s) {
    const reader::ReadResult &r = s.result;
    j.key("end").obj().kv("stop", reader::stop_name(r.stop)).kv("offset", r.stop_offset);
    j.kv("reason", r.stop_reason).kv("uncommitted_events", r.uncommitted_events);
    if (r.stop == reader::Stop::End)
        j.kv("end_reason", end_reason_name(r.end_reason)).kv("end_message", r.end_message);
    j.end_obj();
}

}  // namespace

void print_json(const Summary &s, const Options &opts, std::ostream &out) {
    Json j(JsonStyle::pretty);
    j.obj().kv("file", opts.path);
    header(j, s);
    dictionaries(j, s);
    frames(j, s, opts, out);
    marks(j, s);
    counters(j, s);
    end(j, s);
    j.end_obj();
    out << j.raw() << '\n';
}

}  // namespace mt::dump
