/*
 * glradix-demo internals shared by its files: the GL function table, the
 * procedural scene, the pass-by-pass sort states and the three views.
 */
#ifndef GLRADIX_DEMO_H
#define GLRADIX_DEMO_H

#include <glad/gl.h>
#include <glradix/glradix.h>

#include <stdint.h>

/* One glad MX table for the whole demo (defined in gl_util.c). */
extern GladGLContext gl;

/* ---- gl_util.c ---- */
GLuint demo_program(const char *name, const char *vs, const char *fs);
/* A compute program from `count` strings, in order (0 and a message on stderr on failure). */
GLuint demo_compute_program(const char *name, int count, const char *const *src);
GLuint demo_buffer(const void *data, size_t bytes);
GLuint demo_texbuf(GLuint buffer, GLenum format); /* texture buffer view */
void demo_read(GLuint buffer, void *data, size_t bytes);
void demo_log(void *user, const char *message);   /* glradix_logfunc */

/* ---- scene.c ---- */
typedef struct demo_scene {
  uint32_t n;
  float *bounds;   /* n x (vec4 min, vec4 max), min == max: glradix_lbvh layout */
  uint32_t *codes; /* 30-bit Morton code of each point in the scene box */
  float lo[3], hi[3];
  float *tris;     /* an OBJ scene's triangles, n x 3 x (x, y, z, 0), the points their
                      centroids; NULL for the built-in scene */
} demo_scene;
int scene_make(demo_scene *s, uint32_t n, uint64_t seed);
/* The triangles of an OBJ file (bench/bench_obj.h); 0 with a line on
 * stderr if it cannot be read. */
int scene_load_obj(demo_scene *s, const char *path);
void scene_free(demo_scene *s);

/* ---- sort_steps.c ---- */
#define DEMO_KEY_BITS 30u
#define DEMO_PASSES (DEMO_KEY_BITS / 2u) /* radix_bits = 2 */
/* Steps: 0 = the input; 2k - 1 = pass k after its local shuffle (and scan);
 * 2k = after pass k's global scatter. */
#define DEMO_STEPS (2u * DEMO_PASSES + 1u)
typedef struct demo_steps {
  uint32_t n;
  GLuint keys[DEMO_PASSES + 1], vals[DEMO_PASSES + 1]; /* state after k passes */
  GLuint key_tex[DEMO_PASSES + 1], val_tex[DEMO_PASSES + 1];
  GLuint shuf_keys[DEMO_PASSES + 1], shuf_tex[DEMO_PASSES + 1]; /* pass k's shuffled tiles */
  glradix_stage_times times[DEMO_PASSES + 1]; /* of pass k alone, profiled */
  int verified[DEMO_PASSES + 1];              /* state k == CPU LSD after k passes */
  int shuf_verified[DEMO_PASSES + 1];         /* tiles == CPU stable split of state k-1 */
} demo_steps;
int steps_build(demo_steps *st, const demo_scene *s, glradix_loadfunc load);
void steps_free(demo_steps *st);
void steps_describe(const demo_steps *st, unsigned step, char *out, size_t size);
GLuint steps_key_tex(const demo_steps *st, unsigned step);
unsigned steps_digit_shift(unsigned step); /* of the pass a step belongs to */
int steps_verified(const demo_steps *st, unsigned step);

/* ---- view_sort.c ---- */
int view_sort_init(void);
void view_sort_draw(const demo_steps *st, unsigned k, int w, int h);
void view_sort_free(void);

/* ---- view_bvh.c ---- */
typedef struct demo_camera {
  float yaw, pitch, dist; /* degrees, degrees, scene radii */
} demo_camera;
int view_bvh_init(const demo_scene *s, const demo_steps *st, glradix_loadfunc load);
int view_bvh_set_depth(int depth); /* clamps; returns the boxes drawn */
int view_bvh_depth(void);
int view_bvh_max_depth(void);
int view_bvh_boxes(void);      /* boxes at the current depth */
void view_bvh_draw(const demo_camera *cam, int w, int h);
void view_bvh_free(void);

/* ---- view_rays.c ---- */
int view_rays_init(const demo_scene *s, glradix_loadfunc load);
int view_rays_draw(const demo_camera *cam, int w, int h); /* 1: traced anew (title) */
void view_rays_describe(char *out, size_t size);
int view_rays_check(char *line, size_t size); /* the last trace against the CPU */
void view_rays_free(void);

/* ---- png_out.c ---- */
int png_write_rgba(const char *path, const unsigned char *bottom_up, int w, int h);

#endif
