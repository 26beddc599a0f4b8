// The L2 flush: the read kernel over a buffer twice the L2's size.
#include "cuda/l2_flush.hpp"

namespace kplay {

L2Flusher::L2Flusher(const DeviceInfo& device)
    : buffer_(2 * static_cast<size_t>(device.l2_bytes) + 16), reader_(device), blocks_(device.sm_count * 4) {
    Stream stream = Stream::create();
    buffer_.fill_bytes(0x5A, stream);  // real data to read, never zeros
    stream.synchronize();
}

void L2Flusher::flush(const Stream& stream) const { reader_.launch(stream, buffer_, static_cast<unsigned>(blocks_), 256); }

}  // namespace kplay
