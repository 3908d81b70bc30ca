/*
 * View 2: the points in 3D, coloured along the Morton curve (a colour ramp
 * over their sorted position, read straight from the final sort state's
 * values), and the boxes of the LBVH that glradix_lbvh_build makes from the
 * same points, as wireframes at one chosen depth (plus the root box).
 * The node buffer is read back once to find each node's depth; the boxes of
 * the chosen depth are turned into line vertices on the CPU.
 */
#include "demo.h"
#include <glradix/lbvh.h>

#include <cglm/cglm.h>
#include <stdio.h>
#include <stdlib.h>

static const char *pts_vs =
    "#version 430 core\n"
    "uniform samplerBuffer bounds;  /* vec4 min, vec4 max per point */\n"
    "uniform usamplerBuffer order;  /* sorted position -> point index */\n"
    "uniform int n;\n"
    "uniform mat4 mvp;\n"
    "out vec3 colour;\n"
    "void main() {\n"
    "  int p = int(texelFetch(order, gl_VertexID).r);\n"
    "  float t = float(gl_VertexID) / float(max(n - 1, 1));\n"
    "  colour = 0.5 + 0.5 * cos(6.2831853 * (0.8 * t + vec3(0.0, 0.33, 0.67)));\n"
    "  gl_Position = mvp * vec4(texelFetch(bounds, 2 * p).xyz, 1.0);\n"
    "}\n";

static const char *box_vs =
    "#version 430 core\n"
    "layout(location = 0) in vec4 corner; /* xyz, w = 0 root / 1 chosen depth */\n"
    "uniform mat4 mvp;\n"
    "out vec3 colour;\n"
    "void main() {\n"
    "  colour = corner.w < 0.5 ? vec3(0.55) : vec3(1.0, 1.0, 0.85);\n"
    "  gl_Position = mvp * vec4(corner.xyz, 1.0);\n"
    "}\n";

static const char *fs_src =
    "#version 430 core\n"
    "in vec3 colour;\n"
    "out vec4 frag;\n"
    "void main() { frag = vec4(colour, 1.0); }\n";

static GLuint pts_prog, box_prog, pts_vao, box_vao, box_vbo, nodes_buf, bounds_buf, bounds_tex;
static GLuint order_tex;
static glradix_lbvh_node *nodes;
static uint8_t *depth_of; /* per node, 255 = unreachable */
static uint32_t n, node_count;
static int depth, max_depth, box_verts, boxes_drawn;
static vec3 centre;
static float radius;

/* Depth of every node from the root; returns the deepest internal node's. */
static int node_depths(void) {
  uint32_t *stack = malloc((size_t)node_count * sizeof *stack), top = 0;
  int deepest = 0;
  if (!stack) return -1;
  for (uint32_t i = 0; i < node_count; ++i) depth_of[i] = 255;
  depth_of[0] = 0;
  stack[top++] = 0;
  while (top) {
    uint32_t i = stack[--top];
    if (nodes[i].b == GLRADIX_LBVH_LEAF) continue;
    if (depth_of[i] > deepest) deepest = depth_of[i];
    const uint32_t c[2] = {nodes[i].a, nodes[i].b};
    for (int j = 0; j < 2; ++j) {
      if (c[j] >= node_count || depth_of[c[j]] != 255) continue; /* malformed: skip */
      depth_of[c[j]] = (uint8_t)(depth_of[i] < 254 ? depth_of[i] + 1 : 254);
      stack[top++] = c[j];
    }
  }
  free(stack);
  return deepest;
}

static void push_box(float *v, int *at, const float *lo, const float *hi, float w) {
  /* 12 edges: the 4 along each axis. */
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, s = (axis + 2) % 3;
    for (int e = 0; e < 4; ++e) {
      for (int end = 0; end < 2; ++end) {
        float *p = v + (size_t)*at * 4;
        p[axis] = end ? hi[axis] : lo[axis];
        p[u] = (e & 1) ? hi[u] : lo[u];
        p[s] = (e & 2) ? hi[s] : lo[s];
        p[3] = w;
        ++*at;
      }
    }
  }
}

int view_bvh_set_depth(int d) {
  int boxes = 0, at = 0;
  depth = d < 0 ? 0 : d > max_depth ? max_depth : d;
  for (uint32_t i = 0; i < node_count; ++i)
    if (depth_of[i] == depth && (nodes[i].b != GLRADIX_LBVH_LEAF || node_count == 1)) ++boxes;
  float *v = malloc((size_t)(boxes + 1) * 24 * 4 * sizeof(float));
  if (!v) return 0;
  push_box(v, &at, nodes[0].min, nodes[0].max, 0.0f);
  for (uint32_t i = 0; i < node_count; ++i)
    if (depth_of[i] == depth && (nodes[i].b != GLRADIX_LBVH_LEAF || node_count == 1))
      push_box(v, &at, nodes[i].min, nodes[i].max, 1.0f);
  gl.BindBuffer(GL_ARRAY_BUFFER, box_vbo);
  gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)at * 4 * (GLsizeiptr)sizeof(float), v, GL_DYNAMIC_DRAW);
  gl.BindBuffer(GL_ARRAY_BUFFER, 0);
  free(v);
  box_verts = at;
  boxes_drawn = boxes;
  return boxes;
}

int view_bvh_depth(void) { return depth; }
int view_bvh_max_depth(void) { return max_depth; }
int view_bvh_boxes(void) { return boxes_drawn; }

int view_bvh_init(const demo_scene *s, const demo_steps *st, glradix_loadfunc load) {
  glradix_desc d = {0};
  glradix_context *ctx = NULL;
  glradix_lbvh_desc ld = {0};
  glradix_status e;
  n = s->n;
  node_count = 2 * n - 1;
  d.load = load;
  d.log = demo_log;
  if ((e = glradix_create(&d, &ctx)) != GLRADIX_OK) goto fail;
  bounds_buf = demo_buffer(s->bounds, (size_t)n * 32);
  nodes_buf = demo_buffer(NULL, glradix_lbvh_nodes_bytes(n));
  ld.bounds = bounds_buf;
  ld.count = n;
  ld.nodes = nodes_buf;
  e = glradix_lbvh_build(ctx, &ld);
  glradix_destroy(ctx);
  if (e != GLRADIX_OK) goto fail;
  nodes = malloc(glradix_lbvh_nodes_bytes(n));
  depth_of = malloc(node_count);
  if (!nodes || !depth_of) return 0;
  demo_read(nodes_buf, nodes, glradix_lbvh_nodes_bytes(n));
  if ((max_depth = node_depths()) < 0) return 0;

  pts_prog = demo_program("points", pts_vs, fs_src);
  box_prog = demo_program("boxes", box_vs, fs_src);
  if (!pts_prog || !box_prog) return 0;
  bounds_tex = demo_texbuf(bounds_buf, GL_RGBA32F);
  order_tex = st->val_tex[DEMO_PASSES];
  gl.GenVertexArrays(1, &pts_vao);
  gl.GenVertexArrays(1, &box_vao);
  gl.GenBuffers(1, &box_vbo);
  gl.BindVertexArray(box_vao);
  gl.BindBuffer(GL_ARRAY_BUFFER, box_vbo);
  gl.EnableVertexAttribArray(0);
  gl.VertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
  gl.BindVertexArray(0);
  gl.BindBuffer(GL_ARRAY_BUFFER, 0);
  for (int a = 0; a < 3; ++a) centre[a] = 0.5f * (s->lo[a] + s->hi[a]);
  radius = 0.5f * glm_vec3_distance((float *)s->lo, (float *)s->hi);
  if (radius <= 0.0f) radius = 1.0f;
  view_bvh_set_depth(max_depth < 5 ? max_depth : 5);
  return 1;
fail:
  fprintf(stderr, "glradix-demo: LBVH build failed: %s\n", glradix_status_string(e));
  return 0;
}

void view_bvh_draw(const demo_camera *cam, int w, int h) {
  mat4 proj, view, mvp;
  vec3 eye, up = {0.0f, 1.0f, 0.0f};
  const float yaw = glm_rad(cam->yaw), pitch = glm_rad(cam->pitch);
  const float dist = cam->dist * radius;
  eye[0] = centre[0] + dist * cosf(pitch) * sinf(yaw);
  eye[1] = centre[1] + dist * sinf(pitch);
  eye[2] = centre[2] + dist * cosf(pitch) * cosf(yaw);
  glm_perspective(glm_rad(45.0f), (float)w / (float)(h > 0 ? h : 1), 0.01f * radius,
                  (cam->dist + 4.0f) * radius, proj);
  glm_lookat(eye, centre, up, view);
  glm_mat4_mul(proj, view, mvp);

  gl.Viewport(0, 0, w, h);
  gl.Enable(GL_DEPTH_TEST);
  gl.ClearColor(0.05f, 0.05f, 0.07f, 1.0f);
  gl.Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  gl.UseProgram(pts_prog);
  gl.BindVertexArray(pts_vao);
  gl.ActiveTexture(GL_TEXTURE0);
  gl.BindTexture(GL_TEXTURE_BUFFER, bounds_tex);
  gl.ActiveTexture(GL_TEXTURE1);
  gl.BindTexture(GL_TEXTURE_BUFFER, order_tex);
  gl.Uniform1i(gl.GetUniformLocation(pts_prog, "bounds"), 0);
  gl.Uniform1i(gl.GetUniformLocation(pts_prog, "order"), 1);
  gl.Uniform1i(gl.GetUniformLocation(pts_prog, "n"), (GLint)n);
  gl.UniformMatrix4fv(gl.GetUniformLocation(pts_prog, "mvp"), 1, GL_FALSE, (float *)mvp);
  gl.PointSize(2.0f);
  gl.DrawArrays(GL_POINTS, 0, (GLsizei)n);
  gl.BindTexture(GL_TEXTURE_BUFFER, 0);
  gl.ActiveTexture(GL_TEXTURE0);
  gl.BindTexture(GL_TEXTURE_BUFFER, 0);

  gl.UseProgram(box_prog);
  gl.BindVertexArray(box_vao);
  gl.UniformMatrix4fv(gl.GetUniformLocation(box_prog, "mvp"), 1, GL_FALSE, (float *)mvp);
  gl.DrawArrays(GL_LINES, 0, box_verts);
  gl.BindVertexArray(0);
  gl.UseProgram(0);
  gl.Disable(GL_DEPTH_TEST);
}

void view_bvh_free(void) {
  gl.DeleteProgram(pts_prog);
  gl.DeleteProgram(box_prog);
  gl.DeleteVertexArrays(1, &pts_vao);
  gl.DeleteVertexArrays(1, &box_vao);
  gl.DeleteBuffers(1, &box_vbo);
  gl.DeleteBuffers(1, &nodes_buf);
  gl.DeleteTextures(1, &bounds_tex);
  gl.DeleteBuffers(1, &bounds_buf);
  free(nodes);
  free(depth_of);
  nodes = NULL;
  depth_of = NULL;
}
