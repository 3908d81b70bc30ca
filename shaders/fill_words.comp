// OpenGL ES only (GL clears with glClearBufferSubData, which ES 3.x
// lacks): words [u_first, u_first + u_words) of the bound buffer set to
// u_value, one word an invocation over a grid of as many groups as needed.

layout(std430, binding = B_FILL) writeonly buffer Fill { uint fill_data[]; };
layout(location = LOC_FILL_FIRST) uniform uint u_first;
layout(location = LOC_FILL_WORDS) uniform uint u_words;
layout(location = LOC_FILL_VALUE) uniform uint u_value;

void main() {
  uint i = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  if (i < u_words) fill_data[u_first + i] = u_value;
}
