// event_predict.h — what a version 3 or 4 EVENTS entry leaves out is predicted from the earlier
// entries of its chunk and the stack's STACKS entry (format.h, mt_event_flags). The encoder and the
// decoder keep this same state and update it the same way after every entry, so what one
// predicts the other rebuilds exactly. Plain arrays, no allocation of its own: the runtime's
// writer uses it (no libstdc++ there).
#ifndef MEMTRACER_EVENT_PREDICT_H
#define MEMTRACER_EVENT_PREDICT_H

#include <memtracer/format.h>

#include <stdint.h>
#include <string.h>

namespace mt::codec {

// An allocation's class and sizes: what SAME_CLASS and SAME_SIZE predict.
struct EventShape {
    uint64_t class_id, size, gc_size;
};

struct EventPredict {
    // The last event that used this shape slot (stack % MT_EVENT_SHAPE_SLOTS); stack_plus1 0: none.
    // next_plus1 (version 4's STACK_PREDICTED): the stack of the event that came right after the
    // owner's last event, + 1; 0 none. A game allocates in loops, so the call site after this one
    // is mostly the one that came after it last time (docs/benchmarks.md, issue 22 fourth
    // session: 66% of stacks predicted this way, against 6% as the previous one). Kept in the
    // shape slot: the previous event's stack always owns its slot (it was just written), so the
    // prediction is one load; a slot that changes owner forgets the successor.
    struct ShapeSlot {
        uint64_t stack_plus1;
        EventShape shape;
        uint64_t next_plus1;
    };
    // The last event that used this address slot (mt_event_addr_slot); thread_plus1 0: none.
    // stride: what the next address is predicted to add (at first, minus the GC size); step:
    // the last address minus the one before it.
    struct AddrSlot {
        uint64_t thread_plus1, gc_size, address, stride, step;
    };
    uint64_t thread_plus1;  // the previous event's thread + 1; 0 before the chunk's first event
    uint64_t stack_plus1;   // the previous event's stack + 1
    ShapeSlot shape[MT_EVENT_SHAPE_SLOTS];
    AddrSlot addr[MT_EVENT_ADDR_SLOTS];

    void reset() { memset(this, 0, sizeof *this); }  // at every chunk's start

    // This stack's last event in the chunk, if its slot still holds it.
    const EventShape *last_shape(uint64_t stack) const {
        const ShapeSlot &s = shape[stack % MT_EVENT_SHAPE_SLOTS];
        return s.stack_plus1 == stack + 1 ? &s.shape : nullptr;
    }
    // The previous event's stack's slot. Before the chunk's first event (stack_plus1 0) the
    // index wraps to the last slot, which no stack owns yet: its next_plus1 is 0 (reset), and
    // what learn() writes there is cleared when a stack takes the slot (no branch on the hot path).
    ShapeSlot &prev_slot() { return shape[(stack_plus1 - 1) % MT_EVENT_SHAPE_SLOTS]; }
    // The predicted stack + 1 (0: none, the chunk's first event). Version 4: the previous stack's
    // successor where its slot has one; version 3 (successor false): the previous stack.
    uint64_t predict_stack_plus1(bool successor) {
        return successor ? predict_stack_plus1(prev_slot()) : stack_plus1;
    }
    // The same for version 4, for a caller that already holds the previous stack's slot (the encoder).
    uint64_t predict_stack_plus1(const ShapeSlot &prev) const { return prev.next_plus1 ? prev.next_plus1 : stack_plus1; }
    AddrSlot &addr_of(uint64_t thread, uint64_t gc_size) { return addr[mt_event_addr_slot(thread, gc_size)]; }
    // The predicted address, when the slot holds an event of this thread and GC size.
    bool predict_addr(uint64_t thread, uint64_t gc_size, uint64_t *out) {
        const AddrSlot &a = addr_of(thread, gc_size);
        if (a.thread_plus1 != thread + 1 || a.gc_size != gc_size) return false;
        *out = a.address + a.stride;
        return true;
    }

    // After every entry, predicted or not.
    void learn(uint64_t thread, uint64_t stack, const EventShape &s, uint64_t address) {
        ShapeSlot &cur = shape[stack % MT_EVENT_SHAPE_SLOTS];
        learn_stack(prev_slot(), cur, cur.stack_plus1 == stack + 1, stack + 1, s);
        thread_plus1 = thread + 1;
        stack_plus1 = stack + 1;
        learn_addr(addr_of(thread, s.gc_size), thread, s.gc_size, address);
    }
    // learn()'s stack part, for a caller that already holds the two slots (the encoder): the
    // previous stack's successor is this one, then this stack's slot takes its shape (forgetting
    // the successor of a stack it takes the slot from). In this order: the two may be one slot.
    // owned: cur already held this stack.
    static void learn_stack(ShapeSlot &prev, ShapeSlot &cur, bool owned, uint64_t stack_plus1, const EventShape &s) {
        prev.next_plus1 = stack_plus1;
        if (!owned) cur.next_plus1 = 0;
        cur.stack_plus1 = stack_plus1;
        cur.shape = s;
    }
    // learn()'s address part, for a caller that already holds the slot (the encoder's hot path).
    static void learn_addr(AddrSlot &a, uint64_t thread, uint64_t gc_size, uint64_t address) {
        if (a.thread_plus1 != thread + 1 || a.gc_size != gc_size) {
            a = AddrSlot{thread + 1, gc_size, address, 0 - gc_size, 0};
            return;
        }
        // The same step twice is the free list's stride (Boehm's granule, where the GC size is
        // not exact); a jump to another block or over a live object leaves the stride as it was.
        uint64_t step = address - a.address;
        if (step == a.step) a.stride = step;
        a.step = step;
        a.address = address;
    }
};

}  // namespace mt::codec

#endif
