// Reduce-then-scan plan, after an odd number of passes: the last pass left
// the sorted keys (and values) in scratch; copy them to the caller's
// buffers. A compute copy rather than glCopyBufferSubData: the copy
// command stalled the GPU between the sort's dispatches far longer than this
// copy takes; and its length can be the GPU count
// (indirect dispatch over the count's tiles), so a sort with a
// count_buffer needs no other plan.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeys { KEY_T out_keys[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValues { uint out_values[]; };
#endif

void main() {
  uint tile = group_index();
  uint tile_n = keys_in_tile(tile);
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + gl_LocalInvocationID.x;
    if (i < tile_n) {
      out_keys[tile * TILE + i] = keys[tile * TILE + i];
#if HAS_VALUES
      out_values[tile * TILE + i] = values[tile * TILE + i];
#endif
    }
  }
}
