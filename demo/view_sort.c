/*
 * View 1: the key array of one sort state as a dot chart (x = array index,
 * y = key / 2^30), coloured by the 2-bit digit of the pass that produced the
 * state (pass 1's digit for the input), with a strip of the same colours
 * underneath so that the four stable buckets show as blocks. Drawn with no
 * vertex attributes: the vertex shader fetches key gl_VertexID (or
 * gl_VertexID / 2 for the strip's vertical lines) from a texture buffer over
 * the sort's own GL buffer, so nothing is read back to draw.
 */
#include "demo.h"

static const char *vs_src =
    "#version 430 core\n"
    "uniform usamplerBuffer keys;\n"
    "uniform int n;\n"
    "uniform uint shift;\n"
    "uniform int strip;\n"
    "out vec3 colour;\n"
    "const vec3 pal[4] = vec3[4](vec3(0.25, 0.55, 1.0), vec3(0.3, 0.85, 0.35),\n"
    "                            vec3(1.0, 0.75, 0.2), vec3(0.95, 0.3, 0.35));\n"
    "void main() {\n"
    "  int i = strip != 0 ? gl_VertexID / 2 : gl_VertexID;\n"
    "  uint k = texelFetch(keys, i).r;\n"
    "  float x = -0.96 + 1.92 * (float(i) + 0.5) / float(n);\n"
    "  float y = strip != 0 ? ((gl_VertexID & 1) == 0 ? -0.95 : -0.82)\n"
    "                       : -0.74 + 1.68 * float(k) / 1073741824.0;\n"
    "  colour = pal[(k >> shift) & 3u];\n"
    "  gl_Position = vec4(x, y, 0.0, 1.0);\n"
    "}\n";

static const char *fs_src =
    "#version 430 core\n"
    "in vec3 colour;\n"
    "out vec4 frag;\n"
    "void main() { frag = vec4(colour, 1.0); }\n";

static GLuint prog, vao;

int view_sort_init(void) {
  prog = demo_program("sort view", vs_src, fs_src);
  gl.GenVertexArrays(1, &vao); /* core profile: a VAO must be bound to draw */
  return prog != 0;
}

void view_sort_draw(const demo_steps *st, unsigned step, int w, int h) {
  const unsigned shift = steps_digit_shift(step);
  gl.Viewport(0, 0, w, h);
  gl.Disable(GL_DEPTH_TEST);
  gl.ClearColor(0.07f, 0.07f, 0.09f, 1.0f);
  gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  gl.UseProgram(prog);
  gl.BindVertexArray(vao);
  gl.ActiveTexture(GL_TEXTURE0);
  gl.BindTexture(GL_TEXTURE_BUFFER, steps_key_tex(st, step));
  gl.Uniform1i(gl.GetUniformLocation(prog, "keys"), 0);
  gl.Uniform1i(gl.GetUniformLocation(prog, "n"), (GLint)st->n);
  gl.Uniform1ui(gl.GetUniformLocation(prog, "shift"), shift);
  gl.Uniform1i(gl.GetUniformLocation(prog, "strip"), 1);
  gl.DrawArrays(GL_LINES, 0, (GLsizei)st->n * 2);
  gl.Uniform1i(gl.GetUniformLocation(prog, "strip"), 0);
  gl.PointSize(2.0f);
  gl.DrawArrays(GL_POINTS, 0, (GLsizei)st->n);
  gl.BindTexture(GL_TEXTURE_BUFFER, 0);
  gl.BindVertexArray(0);
  gl.UseProgram(0);
}

void view_sort_free(void) {
  gl.DeleteProgram(prog);
  gl.DeleteVertexArrays(1, &vao);
  prog = vao = 0;
}
