// crc_helper.cpp — the reader's CRC for live_test.cpp's hand-built chunks.
#include <cstddef>
#include <cstdint>

#include "memtracer/codec.h"

uint32_t live_test_crc(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
    return mt::codec::crc32c_update(mt::codec::crc32c_update(0, a, na), b, nb);
}
