// event_predict.h — what a version 3 or 4 EVENTS entry leaves out is predicted from the earlier entries
// of its chunk and the stack's STACKS entry (format.h, mt_event_flags). The encoder and the
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
    struct ShapeSlot {
        uint64_t stack_plus1;
        EventShape shape;
    };
    // The last event that used this address slot (mt_event_addr_slot); thread_plus1 0: none.
    // stride: what the next address is predicted to add (at first, minus the GC size); step:
    // the last address minus the one before it.
    struct AddrSlot {
        uint64_t thread_plus1, gc_size, address, stride, step;
    };
    // The stack that followed stack S the last time S occurred (version 4's STACK_PREDICTED), in
    // slot S % MT_EVENT_SHAPE_SLOTS; stack_plus1 0: none. A game allocates in loops, so the
    // call site after this one is mostly the one that came after it last time (docs/benchmarks.md,
    // issue 22 fourth session: 66% of stacks predicted this way, against 6% as the previous one).
    struct NextSlot {
        uint64_t stack_plus1, next_plus1;
    };
    uint64_t thread_plus1;  // the previous event's thread + 1; 0 before the chunk's first event
    uint64_t stack_plus1;   // the previous event's stack + 1
    ShapeSlot shape[MT_EVENT_SHAPE_SLOTS];
    NextSlot next[MT_EVENT_SHAPE_SLOTS];
    AddrSlot addr[MT_EVENT_ADDR_SLOTS];

    void reset() { memset(this, 0, sizeof *this); }  // at every chunk's start

    // This stack's last event in the chunk, if its slot still holds it.
    const EventShape *last_shape(uint64_t stack) const {
        const ShapeSlot &s = shape[stack % MT_EVENT_SHAPE_SLOTS];
        return s.stack_plus1 == stack + 1 ? &s.shape : nullptr;
    }
    // The predicted stack + 1 (0: none, the chunk's first event). Version 4: the previous stack's
    // successor where its slot knows one; version 3 (successor false): the previous stack.
    uint64_t predict_stack_plus1(bool successor) const {
        if (!successor || stack_plus1 == 0) return stack_plus1;
        const NextSlot &n = next[(stack_plus1 - 1) % MT_EVENT_SHAPE_SLOTS];
        return n.stack_plus1 == stack_plus1 ? n.next_plus1 : stack_plus1;
    }
    // Records that `stack_plus1` followed the previous event's stack (before the previous stack
    // moves on to it).
    void learn_next(uint64_t next_stack_plus1) {
        if (stack_plus1 != 0) next[(stack_plus1 - 1) % MT_EVENT_SHAPE_SLOTS] = NextSlot{stack_plus1, next_stack_plus1};
    }
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
        learn_next(stack + 1);
        thread_plus1 = thread + 1;
        stack_plus1 = stack + 1;
        shape[stack % MT_EVENT_SHAPE_SLOTS] = ShapeSlot{stack + 1, s};
        learn_addr(addr_of(thread, s.gc_size), thread, s.gc_size, address);
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
