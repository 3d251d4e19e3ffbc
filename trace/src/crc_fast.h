// crc_fast.h — CRC-32C with the CPU's instruction where there is one (SSE4.2 crc32, ARMv8
// CRC32C*), else codec.h's table. Same value as mt::codec::crc32c_update (checked by the
// writer test); used by the encoder because the table walk was the writer thread's top cost.
#ifndef MEMTRACER_TRACE_CRC_FAST_H
#define MEMTRACER_TRACE_CRC_FAST_H

#include <stddef.h>
#include <stdint.h>

namespace mt::trace {

// crc32c_fast(crc32c_fast(0, a), b) == crc of a||b, exactly as codec::crc32c_update.
uint32_t crc32c_fast(uint32_t crc, const void *data, size_t n);
bool crc32c_hardware();  // whether crc32c_fast uses the CPU instruction here

// codec::chunk_crc with the fast CRC.
uint32_t chunk_crc_fast(uint16_t type, uint16_t flags, uint32_t size, const void *payload);

}  // namespace mt::trace

#endif  // MEMTRACER_TRACE_CRC_FAST_H
