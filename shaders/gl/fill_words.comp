// Words [u_first, u_first + u_words) of the bound buffer: the first
// u_listed of them from u_list, the rest u_value; one word an invocation
// over a grid of as many groups as needed. The library's only way to write
// its scratch from the CPU (fill_words.c says why).

layout(std430, binding = B_FILL) writeonly buffer Fill { uint fill_data[]; };
layout(location = LOC_FILL_FIRST) uniform uint u_first;
layout(location = LOC_FILL_WORDS) uniform uint u_words;
layout(location = LOC_FILL_VALUE) uniform uint u_value;
layout(location = LOC_FILL_LISTED) uniform uint u_listed;
layout(location = LOC_FILL_LIST) uniform uint u_list[FILL_LIST];

void main() {
  uint i = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  if (i < u_words) fill_data[u_first + i] = i < u_listed ? u_list[min(i, FILL_LIST - 1u)] : u_value;
}
