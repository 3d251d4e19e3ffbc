// encode_events.cpp — the out-of-line part of EVENTS encoding (the entry itself is inline in
// event_encode.h): the prediction state, allocated at a list's first event.
#include "memtracer/trace_writer.h"

#include <stdlib.h>

namespace mt::trace {

bool ListEncoder::make_predict() {
    predict_ = static_cast<codec::EventPredict *>(malloc(sizeof(codec::EventPredict)));
    if (!predict_) {
        body_.set_failed();  // the entry is lost: list_chunk() reports the failure
        return false;
    }
    predict_->reset();
    return true;
}

}  // namespace mt::trace
